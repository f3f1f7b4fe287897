// What the bundle is made of (issue 24): dist/bundle.json against the files it describes and the
// SBOM, /about's picture and table of it (accessible, CSP-clean, offline from the cache), and
// `npm run compare` comparing two builds, in both builds.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BundleComposition } from '../../src/contract/bundle';
import { axeViolations, cspViolations, openInstalled, recordCsp, settle, watchConsole } from './lib/app';
import { freshContext } from './lib/browser';
import { startHost } from './lib/hosts';
import { audit, BUILDS, readPrecache, site, temp } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { APP_NAME } from '../../src/contract/app-name';

/**
 * What esbuild may add to a file beyond its modules' bytes: its banner, CommonJS wrappers and
 * helpers, and, the page's script being split, the imports and exports between its chunks.
 */
const ESBUILD_MARGIN = 2048;

const composition = (dir: string): BundleComposition => JSON.parse(readFileSync(path.join(dir, 'bundle.json'), 'utf8'));

/** `npm run compare`'s command, run with Node alone; its exit code and output. */
function compare(...args: string[]) {
  const run = spawnSync(process.execPath, ['tools/compare-builds.mjs', ...args], { encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

for (const build of BUILDS) {
  const dir = site(build.name, 'v1');
  const test = suite<Shared>(`bundle composition (${build.name})`);
  shareChromium(test, () => startHost('preview', dir));

  test('bundle.json: each shipped script and stylesheet, its modules adding up to the file but for esbuild’s own bytes; listed and precached', () => {
    const document = composition(dir);
    const files = new Map(audit(dir).files.map((file) => [file.path, file.bytes]));
    assert.is(document.build, build.name);
    assert.equal(
      document.outputs.map((output) => output.path),
      [...files.keys()].filter((file) => /^assets\/.*\.(js|css)$/.test(file)),
    );
    for (const output of document.outputs) {
      assert.is(output.bytes, files.get(output.path), `${output.path}: the size audit.json lists`);
      const modules = output.groups.reduce((total, group) => total + group.modules.reduce((sum, module) => sum + module.bytes, 0), 0);
      assert.is(modules + output.esbuild, output.bytes, `${output.path}: modules + esbuild = the file`);
      assert.ok(output.esbuild >= 0 && output.esbuild < ESBUILD_MARGIN, `${output.path}: esbuild adds ${output.esbuild} B`);
      for (const group of output.groups) {
        assert.is(
          group.bytes,
          group.modules.reduce((sum, module) => sum + module.bytes, 0),
          group.name,
        );
      }
    }
    assert.ok(files.has('bundle.json'));
    assert.ok('/bundle.json' in readPrecache(dir));
  });

  test('every SBOM component is a package of the script, with its version, and nothing else third-party is', () => {
    const sbom: { components: { name: string; version: string }[] } = JSON.parse(readFileSync(path.join(dir, 'sbom.cdx.json'), 'utf8'));
    const thirdParty = composition(dir).outputs.flatMap((output) => output.groups.filter((group) => !group.own));
    // A package may span several scripts of the split bundle: it is one component.
    const named = (list: { name: string; version: string | null }[]) =>
      [...new Set(list.map((item) => `${item.name}@${item.version}`))].sort();
    assert.equal(named(thirdParty), named(sbom.components));
    for (const group of composition(dir).outputs.flatMap((output) => output.groups.filter((g) => g.own))) {
      assert.ok(/^(src(\/[\w-]+)?|app-screens)$/.test(group.name), `our own folder: ${group.name}`);
    }
  });

  test('/about draws the script by package and module and tables the same numbers: axe-clean, CSP-clean, offline from the cache', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser, { viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    await recordCsp(context);
    const page = await openInstalled(context, new URL('/about/', host.url).href);
    const problems = watchConsole(page);
    await context.setOffline(true);
    await page.reload();
    await settle(page, 'What this app ships');
    const script = composition(dir).outputs.find((output) => output.path.endsWith('.js'));
    assert.ok(script);
    const picture = page.getByRole('img', { name: `What ${script.path} is made of` });
    await picture.waitFor();
    assert.is(
      await page.locator('svg.chart rect.seg.own').count(),
      script.groups.filter((g) => g.own).reduce((n, g) => n + 1 + g.modules.length, 0),
    );
    const table = page.getByRole('table', { name: `${script.path} by package and module: bytes in the file` });
    const rows = script.groups.reduce((total, group) => total + 1 + group.modules.length, 0) + 1;
    assert.is(await table.locator('tbody tr').count(), rows);
    assert.is(await table.locator('tfoot td').nth(1).textContent(), script.bytes.toLocaleString('en-US'));
    const region = page.getByRole('region', { name: 'Composition' });
    assert.is(await region.getAttribute('tabindex'), '0', 'the scrollable table is reachable by keyboard');
    assert.equal(await axeViolations(page), []);
    assert.equal(await cspViolations(page), []);
    assert.equal(problems, []);
    mkdirSync('test-output', { recursive: true });
    await page.screenshot({ path: `test-output/about-bundle-${build.name}.png`, fullPage: true });
    await context.close();
  });

  test('npm run compare: v1 -> v2 names the changed files and modules; the same build twice, no change', () => {
    const v2 = site(build.name, 'v2');
    const changed = compare(dir, v2);
    assert.is(changed.code, 0, changed.stderr);
    assert.match(changed.stdout, `version ${audit(dir).version} -> ${audit(v2).version}`);
    assert.match(changed.stdout, /changed assets\/app-\w+\.js -> assets\/app-\w+\.js: \+\d+ B raw/);
    assert.match(changed.stdout, /changed index\.html: \+3 B raw/);
    assert.match(changed.stdout, /src \(our code\): src\/main\.tsx grew \+\d+ B/);
    assert.match(changed.stdout, 'Packages (SBOM): no change');
    const markdown = compare(dir, v2, '--markdown');
    assert.ok(markdown.stdout.startsWith(`## ${APP_NAME}: version`), markdown.stdout.slice(0, 80));
    const same = compare(dir, dir);
    assert.is(same.code, 0);
    assert.match(same.stdout, 'No change');
  });

  test('npm run compare: a folder that is not a build exits 2 with one line', () => {
    const notABuild = compare(temp(), dir);
    assert.is(notABuild.code, 2);
    assert.is(notABuild.stdout, '');
    assert.match(notABuild.stderr, /^compare: .* is not a build of this app: it has no audit\.json with a version and files\n$/);
  });

  test.run();
}
