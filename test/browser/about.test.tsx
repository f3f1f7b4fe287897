import * as assert from 'uvu/assert';
import About from '../../src/ui/screens/about';
import Composition from '../../src/ui/screens/about/Composition';
import { formatNumber, formatSize } from '../../src/core/format';
import { mount, waitFor } from './mount';

describe('about screen in Chromium', () => {
  it('says which file it could not load instead of showing an empty table', async () => {
    const { host, unmount } = mount(<About />);
    // The test server serves neither /audit.json nor /licenses.txt.
    await waitFor(
      () =>
        host.textContent?.includes('Could not load /audit.json.') &&
        host.textContent.includes('Could not load /licenses.txt.') &&
        host.textContent.includes('Could not load /bundle.json.'),
    );
    assert.not.ok(host.querySelector('table'));
    assert.not.ok(host.querySelector('svg'));
    assert.equal(
      [...host.querySelectorAll('h2')].map((heading) => heading.textContent),
      ['What the script is made of', 'Licences of bundled code'],
    );
    const sbom = [...host.querySelectorAll('a')].find((link) => link.textContent === 'Software bill of materials');
    assert.is(sbom?.getAttribute('href'), '/sbom.cdx.json', 'the SBOM is linked even when the audit did not load');
    unmount();
  });

  it('draws the script by package and module, our own code apart, and tables the same numbers', async () => {
    const output = {
      path: 'assets/app-X.js',
      bytes: 1000,
      esbuild: 100,
      groups: [
        { name: 'react-dom', version: '19.0.0', own: false, bytes: 600, modules: [{ path: 'index.js', bytes: 600 }] },
        {
          name: 'src/ui',
          version: null,
          own: true,
          bytes: 300,
          modules: [
            { path: 'src/ui/App.tsx', bytes: 200 },
            { path: 'src/ui/Page.tsx', bytes: 100 },
          ],
        },
      ],
    };
    const { host, unmount } = mount(<Composition output={output} />);
    const svg = (await waitFor(() => host.querySelector('svg'))) as SVGSVGElement; // waitFor resolves only once it is there
    assert.is(svg.getAttribute('role'), 'img');
    assert.is(svg.querySelector('title')?.textContent, 'What assets/app-X.js is made of');
    assert.match(svg.querySelector('desc')?.textContent ?? '', 'our own code 30.0 %, third-party packages 60.0 %, esbuild 10.0 %');
    assert.is(host.querySelectorAll('rect.seg.own').length, 1 + 2, 'src/ui in the whole bar, then its two modules');
    assert.is(host.querySelectorAll('rect.seg.third').length, 1 + 1);
    assert.is(host.querySelectorAll('[style]').length, 0, 'no style attribute (the CSP forbids them)');
    const rows = [...host.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent));
    assert.equal(rows, [
      ['react-dom', '19.0.0', '600', '60.0 %'],
      ['index.js', '', '600', '60.0 %'],
      ['src/ui (our code)', '', '300', '30.0 %'],
      ['src/ui/App.tsx', '', '200', '20.0 %'],
      ['src/ui/Page.tsx', '', '100', '10.0 %'],
      ["esbuild's own (banner, wrappers, helpers)", '', '100', '10.0 %'],
    ]);
    assert.is(host.querySelector('section.scroll')?.getAttribute('tabindex'), '0');
    unmount();
  });

  it('formats sizes the same on every machine', () => {
    assert.is(formatNumber(1234567), '1,234,567');
    assert.is(formatSize(0), '0 B');
    assert.is(formatSize(1023), '1023 B');
    assert.is(formatSize(83_968), '82 KB');
    assert.is(formatSize(84_300), '82.3 KB');
    assert.is(formatSize(10 * 1024 ** 3), '10 GB');
  });
});
