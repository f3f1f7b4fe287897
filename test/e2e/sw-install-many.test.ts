// An app that ships many more files than today's still installs whole. The install fetches with
// `keepalive` (an installing worker's plain fetches go out a few at a time in Chromium), and
// Chromium refuses the 257th keepalive fetch in flight: the install keeps 16 in flight, so 300 extra
// files install, each fetched once and stored byte for byte.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cachedPaths, cacheNames, waitReady, watchConsole } from './lib/app';
import { freshContext } from './lib/browser';
import { startHost } from './lib/hosts';
import { cleanup, copySources, readPrecache } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';

/** More than Chromium's 256 keepalive fetches in flight at once. */
const EXTRA_FILES = 300;

let dist = '';

/** A copy of the project with EXTRA_FILES more files in static/, built once. */
function buildWithManyFiles(): string {
  const project = copySources();
  const extra = path.join(project, 'static', 'extra');
  mkdirSync(extra, { recursive: true });
  for (let index = 0; index < EXTRA_FILES; index++) writeFileSync(path.join(extra, `file-${index}.txt`), `extra file ${index}\n`);
  const out = path.join(project, 'dist');
  const result = spawnSync(process.execPath, ['build.mjs', '--out', out], { cwd: project, encoding: 'utf8' });
  assert.is(result.status, 0, `node build.mjs: ${result.stderr}`);
  return out;
}

const test = suite<Shared>(`sw install of ${EXTRA_FILES} more files`);
shareChromium(test, () => {
  dist = buildWithManyFiles();
  return startHost('preview', dist);
});
test.after(cleanup);

test(`installs with ${EXTRA_FILES} more files: every file of the manifest in the cache, each asked of the server at most once`, async ({
  browser,
  host,
}) => {
  const manifest = readPrecache(dist);
  assert.ok(Object.keys(manifest).length > EXTRA_FILES, 'the extra files are in the precache manifest');
  const context = await freshContext(browser);
  await host.logged();
  const from = host.log.length;
  const page = await context.newPage();
  const problems = watchConsole(page);
  await page.goto(host.url);
  await waitReady(page);
  const [name] = await cacheNames(page);
  assert.equal(await cachedPaths(page, name), [...Object.keys(manifest), '/precache.json'].sort());
  const asked = host.log.slice(from).map((request) => request.url);
  const askedTwice = asked.filter((url, index) => url.startsWith('/extra/') && asked.indexOf(url) !== index);
  assert.equal(askedTwice, []);
  assert.equal(problems, []);
  await context.close();
});

test.run();
