// What a builder's own files must not break (issue 42): editors' files beside the screens, a
// rename reaching every shipped text, imported files under a base, and --serve and --watch under
// --base, in a copy of the project that is a git repository.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { editPackageJson, fingerprint, gitCopy, runBuild, startServing } from '../e2e/lib/builder';
import { beforeAllTests } from '../e2e/lib/hooks';
import { cleanup } from '../e2e/lib/site';
import { until } from '../e2e/lib/wait';
import { PROBE, APP, RENAMED, PROBE_FILE, screen, write } from './lib/builder-probe';

let dir: string;

const files = suite<{ dir: string }>("builder: editors' files, a rename, --serve --base (issue 42)");
beforeAllTests(files, () => {
  dir = gitCopy();
});
files.after(cleanup);

files("editors' files beside the screens are ignored: .DS_Store, vim's swap, emacs' backup and autosave, sed -i's temporary", () => {
  for (const name of ['.DS_Store', '.help.tsx.swp', 'index.tsx~', '#index.tsx#', 'sedAb12Cd', 'status.tsx.orig'])
    write(dir, `src/ui/screens/${name}`, 'not a screen\n');
  const outcome = runBuild(dir, []);
  assert.is(outcome.code, 0, outcome.stderr);
  const fingerprints = fingerprint(path.join(dir, 'dist'));
  assert.ok(fingerprints['index.html'] && fingerprints['status/index.html']);
  assert.not.ok(
    Object.keys(fingerprints).some((file) => /DS_Store|swp|sedAb|orig|~|#/.test(file)),
    'no page of theirs',
  );
});

files("a rename reaches every shipped text: the pages' description and <noscript>, the manifest's name and description", () => {
  editPackageJson(dir, (pkg) => ({
    ...pkg,
    name: RENAMED,
    displayName: 'Field Notes',
    description: 'Notes from the field, offline.',
  }));
  const outcome = runBuild(dir, []);
  assert.is(outcome.code, 0, outcome.stderr);
  const html = readFileSync(path.join(dir, 'dist/status/index.html'), 'utf8');
  assert.match(html, '<meta name="description" content="Notes from the field, offline.">');
  assert.match(html, '<noscript>Field Notes needs JavaScript; without it you can read these pages only.</noscript>');
  const manifest = JSON.parse(readFileSync(path.join(dir, 'dist/manifest.webmanifest'), 'utf8'));
  assert.equal(
    [manifest.name, manifest.short_name, manifest.description],
    ['Field Notes', 'Field Notes', 'Notes from the field, offline.'],
  );
  // Every text file shipped, but the precompressed copies (the same bytes); the SBOM's own
  // property names (`offline-shell:build`, …) name the template's CycloneDX properties, not the app.
  const dist = fingerprint(path.join(dir, 'dist'));
  const shipped = Object.keys(dist).filter((file) => dist[file] !== 'folder' && !/\.(gz|br|png)$/.test(file));
  assert.ok(shipped.includes('sbom.cdx.json') && shipped.some((file) => /^assets\/app-\w+\.js$/.test(file)));
  for (const file of shipped) {
    const text = readFileSync(path.join(dir, 'dist', file), 'utf8').replace(/offline-shell:[a-z-]+/g, '');
    // The old name as a whole word (a name is [a-z0-9._-]): the new one may contain it ("notes" in "field-notes").
    const withoutNew = text.replaceAll(RENAMED, '');
    assert.not.match(withoutNew, new RegExp(`(?<![a-z0-9._-])${APP.name.replace(/\./g, '\\.')}(?![a-z0-9_-]|\\.[a-z0-9])`), file);
    if (APP.description) assert.not.ok(text.includes(APP.description), `${file} still has the old description`);
  }
});

files(
  'imported files under --base /my-app/: each hashed in assets/, in the page, the precache, audit.json, bundle.json and the assets budget',
  () => {
    const fixture = path.join(process.cwd(), 'test/fixtures/media/media-fixture');
    write(dir, `src/ui/screens/${PROBE.name}/mark.svg`, readFileSync(path.join(fixture, 'mark.svg'), 'utf8'));
    mkdirSync(path.join(dir, `src/ui/screens/${PROBE.name}`), { recursive: true });
    writeFileSync(path.join(dir, `src/ui/screens/${PROBE.name}/dot.png`), readFileSync(path.join(fixture, 'dot.png')));
    // A font from a stylesheet: the file loader copies its bytes, whatever they are.
    write(dir, `src/ui/screens/${PROBE.name}/probe.woff2`, 'wOF2 a font for the test\n');
    write(dir, `src/ui/screens/${PROBE.name}/probe.css`, `@font-face { font-family: Probe; src: url(./probe.woff2) format('woff2'); }\n`);
    const imports = ['mark.svg', 'dot.png', 'probe.css'].map(
      (file, index) => `import ${index < 2 ? `a${index} from ` : ''}'./${PROBE.name}/${file}';`,
    );
    write(
      dir,
      PROBE_FILE,
      `${imports.join('\n')}\n${screen(PROBE.title, PROBE.navOrder, '<p><img src={a0} alt="A" /><img src={a1} alt="B" /></p>')}`,
    );
    // A builder whose screen brings a stylesheet raises the css budget, as the README says.
    const packageFile = path.join(dir, 'package.json');
    const pkg = JSON.parse(readFileSync(packageFile, 'utf8'));
    writeFileSync(packageFile, `${JSON.stringify({ ...pkg, budgets: { ...pkg.budgets, css: pkg.budgets.css + 300 } }, null, 2)}\n`);
    const outcome = runBuild(dir, ['--base', '/my-app/', '--out', 'dist-assets']);
    spawnSync('git', ['checkout', '--', 'package.json'], { cwd: dir });
    assert.is(outcome.code, 0, outcome.stderr);
    const out = path.join(dir, 'dist-assets');
    const audited = JSON.parse(readFileSync(path.join(out, 'audit.json'), 'utf8')).files.map((file: { path: string }) => file.path);
    const assets = audited.filter((file: string) => /^assets\/(mark|dot|probe)-[A-Z0-9]{8}\.(svg|png|woff2)$/.test(file)).sort();
    assert.is(assets.length, 3, audited.join(', '));
    const html = readFileSync(path.join(out, PROBE.name, 'index.html'), 'utf8');
    const precache = Object.keys(JSON.parse(readFileSync(path.join(out, 'precache.json'), 'utf8')));
    const composition = readFileSync(path.join(out, 'bundle.json'), 'utf8');
    // The screen's stylesheet: in the page's, or in the one of the chunk loaded on use.
    const stylesheets = audited.filter((file: string) => /^assets\/\w+-\w+\.css$/.test(file));
    const css = stylesheets.map((file: string) => readFileSync(path.join(out, file), 'utf8')).join('\n');
    for (const asset of assets) {
      assert.ok(precache.includes(`/my-app/${asset}`), `${asset} precached`);
      assert.ok(composition.includes(`"path": "${asset}"`), `${asset} in bundle.json`);
      if (asset.endsWith('.woff2')) assert.match(css, `url("/my-app/${asset}")`);
      else assert.match(html, `src="/my-app/${asset}"`);
    }
    assert.match(outcome.stdout, /^budget assets: [1-9][\d,]* B gzip/m);
    spawnSync('git', ['clean', '-fdxq', '--exclude=node_modules'], { cwd: dir });
  },
);

files('--serve --base /my-app/ serves the site under /my-app/: / is a 404 that says where, /my-app is redirected', async () => {
  const served = await startServing(dir, ['--serve', '--base', '/my-app/']);
  try {
    assert.match(served.url, /\/my-app\/$/);
    const page = await fetch(served.url);
    assert.is(page.status, 200);
    assert.match(await page.text(), 'href="/my-app/manifest.webmanifest"');
    assert.is((await fetch(new URL('/my-app/status/', served.url))).status, 200);
    assert.is((await fetch(new URL('/my-app/sw.js', served.url))).status, 200);
    const root = await fetch(new URL('/', served.url));
    assert.is(root.status, 404);
    assert.is(await root.text(), 'Not found: this server serves the site under /my-app/\n');
    const bare = await fetch(new URL('/my-app', served.url), { redirect: 'manual' });
    assert.equal([bare.status, bare.headers.get('location')], [301, '/my-app/']);
    const folder = await fetch(new URL('/my-app/status', served.url), { redirect: 'manual' });
    assert.equal([folder.status, folder.headers.get('location')], [301, '/my-app/status/']);
  } finally {
    await served.stop();
  }
});

files('--watch --base /my-app/ serves the dev build under /my-app/, live reload included, and writes nothing', async () => {
  const before = fingerprint(dir);
  const dev = await startServing(dir, ['--watch', '--base', '/my-app/']);
  try {
    assert.match(dev.url, /\/my-app\/$/);
    const page = await fetch(dev.url);
    assert.is(page.status, 200);
    assert.match(await page.text(), 'src="/my-app/assets/app.js"');
    assert.is((await fetch(new URL('/', dev.url))).status, 404);
    const changes = await fetch(new URL('/esbuild', dev.url));
    assert.is(changes.headers.get('content-type'), 'text/event-stream');
    await changes.body?.cancel();
  } finally {
    await dev.stop();
  }
  assert.equal(fingerprint(dir), before);
});

files('npm run verify refuses a dev server with one line, exit 2', async () => {
  const dev = await startServing(dir, ['--watch']);
  try {
    const result = spawnSync(process.execPath, ['tools/verify.mjs', dev.url], { cwd: dir, encoding: 'utf8' });
    assert.is(result.status, 2, result.stdout);
    assert.is(result.stderr, `verify: ${dev.url} serves a dev build (npm run dev), not a release: deploy what npm run build writes\n`);
  } finally {
    await dev.stop();
  }
});

files('the dev loop prerenders after each build and names a screen that throws there, beside the live reload', async () => {
  write(dir, PROBE_FILE, screen(PROBE.title, PROBE.navOrder, '<p>{window.innerWidth}</p>'));
  const dev = await startServing(dir, ['--watch']);
  try {
    const line = `prerender failed (npm run build stops here): ${PROBE_FILE}:5:14: prerendering /${PROBE.name}/ threw ReferenceError: window is not defined`;
    await until('the prerender line', () => dev.output().includes(line), 15_000);
    assert.is((await fetch(new URL(`${PROBE.name}/`, dev.url))).status, 200, 'the dev build is served all the same');
  } finally {
    await dev.stop();
  }
});

files.run();
