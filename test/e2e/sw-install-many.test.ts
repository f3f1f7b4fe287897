// An app that ships many more files than today's still installs whole. The install fetches with
// `keepalive` (an installing worker's plain fetches go out a few at a time in Chromium), and
// Chromium refuses the 257th keepalive fetch in flight: the install keeps 64 in flight, so 300 extra
// files install, each fetched once and stored byte for byte, while the banner counts them a few
// times a second.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openInstalledWatched, waitReady } from './lib/app';
import { freshContext } from './lib/browser';
import { startHost } from './lib/hosts';
import { cleanup, copySources, readPrecache } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { cachedPaths, cacheNames } from './lib/caches';

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
  const { page, problems } = await openInstalledWatched(context, host.url);
  const [name] = await cacheNames(page);
  assert.equal(await cachedPaths(page, name), [...Object.keys(manifest), '/precache.json'].sort());
  const asked = host.log.slice(from).map((request) => request.url);
  const askedTwice = asked.filter((url, index) => url.startsWith('/extra/') && asked.indexOf(url) !== index);
  assert.equal(askedTwice, []);
  assert.equal(problems, []);
  await context.close();
});

/** One text the status region showed, and when (ms after the page's time origin). */
type Shown = { at: number; text: string };

test(`the banner counts the ${EXTRA_FILES} more files a few times a second, not once per file`, async ({ browser, host }) => {
  const total = Object.keys(readPrecache(dist)).length;
  const context = await freshContext(browser);
  // Every text the live region shows is what a screen reader may read out: record each change.
  await context.addInitScript(() => {
    const shown: { at: number; text: string }[] = [];
    (window as unknown as { __shown: typeof shown }).__shown = shown;
    new MutationObserver(() => {
      const text = document.querySelector('[role="status"]')?.textContent ?? '';
      if (text !== shown.at(-1)?.text) shown.push({ at: performance.now(), text });
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  const page = await context.newPage();
  await page.goto(host.url);
  // "Ready" replaces the count: once it shows, no count comes after it.
  await waitReady(page);
  const shown = await page.evaluate(() => (window as unknown as { __shown: Shown[] }).__shown);
  const counts = shown.flatMap(({ at, text }) => {
    const match = /: (\d+) of (\d+) files/.exec(text);
    return match ? [{ at, done: Number(match[1]), of: Number(match[2]) }] : [];
  });
  assert.ok(counts.length >= 1, 'the banner counted the files');
  assert.ok(
    counts.every((count, index) => count.of === total && (index === 0 || count.done > counts[index - 1].done)),
    `counts of ${total}, rising: ${JSON.stringify(counts)}`,
  );
  // At most one count per 250 ms, besides the first and the last (each sent at once). One count
  // per file would be over a hundred here.
  const span = (counts.at(-1)?.at ?? 0) - counts[0].at;
  assert.ok(counts.length <= 2 + Math.ceil(span / 250), `${counts.length} counts in ${Math.round(span)} ms: ${JSON.stringify(counts)}`);
  await context.close();
});

test.run();
