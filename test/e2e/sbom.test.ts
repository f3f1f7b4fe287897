// dist/sbom.cdx.json against what the bundle really contains: esbuild's metafile of the same page
// bundle, read here on its own (inputs that put bytes into a .js output, grouped by package), for
// both builds; and the /about link to it, which works offline like every file of the version.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appOptions } from '../../tools/pipeline/app-bundle.mjs';
import { appIdentity } from '../../tools/config.mjs';
import { openInstalled } from './lib/app';
import { freshContext } from './lib/browser';
import { startHost } from './lib/hosts';
import { BUILDS, readPrecache, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { present } from '../present';
import { APP_NAME } from '../../src/contract/app-name';

const root = process.cwd();

/** The parts of a CycloneDX component this project writes. */
interface Component {
  type: string;
  name: string;
  version: string;
  purl: string;
  licenses: { license?: { id: string }; expression?: string }[];
  hashes: { alg: string; content: string }[];
  properties: { name: string; value: string }[];
}

/** The parts of the SBOM document the tests read. */
interface Sbom {
  bomFormat: string;
  specVersion: string;
  version: number;
  metadata: { component: { name: string; version: string }; properties: { name: string; value: string }[] };
  components: Component[];
  dependencies: { ref: string; dependsOn: string[] }[];
}

/** Package folder -> files (relative, sorted) that put bytes into the page JS, from esbuild's metafile. */
async function bundledFromMetafile(preact: boolean): Promise<Map<string, string[]>> {
  const identity = appIdentity(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')));
  const { metafile } = await esbuild.build({ ...appOptions({ root, preact, dev: false, identity }), write: false, logLevel: 'silent' });
  const packages = new Map<string, string[]>();
  for (const [output, { inputs }] of Object.entries(present(metafile, 'the metafile').outputs)) {
    if (!output.endsWith('.js')) continue;
    for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
      const at = input.lastIndexOf('node_modules/');
      if (at < 0 || bytesInOutput === 0) continue;
      const rest = input.slice(at + 'node_modules/'.length).split('/');
      const nameParts = rest[0].startsWith('@') ? 2 : 1;
      const dir = input.slice(0, at) + 'node_modules/' + rest.slice(0, nameParts).join('/');
      packages.set(dir, [...(packages.get(dir) ?? []), rest.slice(nameParts).join('/')]);
    }
  }
  for (const files of packages.values()) files.sort();
  return packages;
}

const EXPECTED: Record<string, string[]> = { react: ['react', 'react-dom', 'scheduler'], preact: ['preact'] };

for (const build of BUILDS) {
  const dir = site(build.name, 'v1');
  const test = suite<Shared>(`SBOM (${build.name})`);
  shareChromium(test, () => startHost('preview', dir));

  test(`lists exactly the packages esbuild bundled (${EXPECTED[build.name].join(', ')}), each with version, licence, purl and the SHA-384 of its bundled files`, async () => {
    const document: Sbom = JSON.parse(readFileSync(path.join(dir, 'sbom.cdx.json'), 'utf8'));
    assert.is(document.bomFormat, 'CycloneDX');
    assert.is(document.specVersion, '1.5');
    assert.is(document.metadata.component.name, APP_NAME, "the app's name from package.json");
    assert.ok(document.metadata.properties.some((property) => property.name === 'offline-shell:build' && property.value === build.name));

    const bundled = await bundledFromMetafile(build.preact);
    const byName = new Map([...bundled].map(([folder, files]) => [folder.split('node_modules/').at(-1) ?? folder, { folder, files }]));
    assert.equal([...byName.keys()].sort(), EXPECTED[build.name], 'the metafile bundles what this test expects');
    assert.equal(document.components.map((component) => component.name).sort(), [...byName.keys()].sort());

    for (const component of document.components) {
      const { folder, files } = present(byName.get(component.name), `${component.name} in the metafile`);
      const pkg = JSON.parse(readFileSync(path.join(root, folder, 'package.json'), 'utf8'));
      assert.is(component.type, 'library');
      assert.is(component.version, pkg.version, component.name);
      assert.is(component.purl, `pkg:npm/${component.name}@${pkg.version}`);
      assert.equal(component.licenses, [{ license: { id: pkg.license } }], component.name);
      const listed = component.properties.find((property) => property.name === 'offline-shell:bundled-files')?.value.split('\n');
      assert.equal(listed, files, `${component.name}: the files the metafile says went into the JS`);
      const hash = createHash('sha384');
      for (const file of files) hash.update(readFileSync(path.join(root, folder, file)));
      assert.equal(component.hashes, [{ alg: 'SHA-384', content: hash.digest('hex') }], component.name);
    }
    assert.equal(document.dependencies[0].dependsOn.sort(), document.components.map((component) => component.purl).sort());
  });

  test('/about links the SBOM, and the link works offline (the file is precached)', async ({ browser, host }) => {
    assert.ok('/sbom.cdx.json' in readPrecache(dir));
    const context = await freshContext(browser);
    const page = await openInstalled(context, new URL('/about/', host.url).href);
    await context.setOffline(true);
    await page.getByRole('link', { name: 'Software bill of materials' }).click();
    await page.waitForURL('**/sbom.cdx.json');
    const shown = JSON.parse((await page.locator('body').textContent()) ?? '');
    assert.equal(shown, JSON.parse(readFileSync(path.join(dir, 'sbom.cdx.json'), 'utf8')));
    await context.close();
  });

  test.run();
}
