import * as assert from 'uvu/assert';
import About from '../../src/ui/screens/about';
import { formatNumber, formatSize } from '../../src/ui/format';
import { mount, waitFor } from './mount';

describe('about screen in Chromium', () => {
  it('says which file it could not load instead of showing an empty table', async () => {
    const { host, unmount } = mount(<About />);
    // The test server serves neither /audit.json nor /licenses.txt.
    await waitFor(
      () => host.textContent?.includes('Could not load /audit.json.') && host.textContent.includes('Could not load /licenses.txt.'),
    );
    assert.not.ok(host.querySelector('table'));
    assert.is(host.querySelector('h2')?.textContent, 'Licences of bundled code');
    const sbom = [...host.querySelectorAll('a')].find((link) => link.textContent === 'Software bill of materials');
    assert.is(sbom?.getAttribute('href'), '/sbom.cdx.json', 'the SBOM is linked even when the audit did not load');
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
