// What the README's "Add a screen" says, done in a copy of the project: one new file in
// src/ui/screens/, a build, and the screen is a route like the others: prerendered, precached,
// linked from every page's navigation, and working offline from the worker's cache.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listScreens } from '../../tools/screens.mjs';
import { openInstalled, settle, watchConsole } from './lib/app';
import { freshContext } from './lib/browser';
import { startHost } from './lib/hosts';
import { APP_NAME, BUILDS, cleanup, copySources, readPrecache } from './lib/site';
import { beforeAllTests } from './lib/hooks';
import { shareChromium, type Shared } from './lib/suite';

/** The new screen: its file name (its URL), its title, its place (after the app's last) and what it shows. */
const NAME = 'changes';
const TITLE = 'What changed';
const NAV_ORDER = Math.max(...listScreens(process.cwd()).map((screen) => screen.navOrder)) + 1;
const TEXT = 'This screen was added as one file.';
const SOURCE = `// /changes/: added by test/e2e/add-screen.test.ts, as the README says.
export const title = '${TITLE}';
export const navOrder = ${NAV_ORDER};

export default function Changes() {
  return <p>${TEXT}</p>;
}
`;

/** Runs `node build.mjs` in `dir`; fails the test with its output when the build fails. */
function build(dir: string, flags: string[]): void {
  const result = spawnSync(process.execPath, ['build.mjs', ...flags], { cwd: dir, encoding: 'utf8' });
  assert.is(result.status, 0, `node build.mjs ${flags.join(' ')}: ${result.stderr}`);
}

const test = suite<Shared>('add a screen: one file in src/ui/screens/');
shareChromium(test);
let project: string;
const dists: Record<string, string> = {};

beforeAllTests(test, () => {
  project = copySources();
  writeFileSync(path.join(project, 'src/ui/screens', `${NAME}.tsx`), SOURCE);
  for (const { name, preact } of BUILDS) {
    dists[name] = path.join(project, `dist-${name}`);
    build(project, ['--out', dists[name], ...(preact ? ['--preact'] : [])]);
  }
});
test.after(cleanup);

test('the route table has it, last in the navigation (tools/screens.mjs)', () => {
  const screens = listScreens(project);
  assert.equal(screens.at(-1), { name: NAME, path: `/${NAME}/`, title: TITLE, navOrder: NAV_ORDER, file: `src/ui/screens/${NAME}.tsx` });
  assert.is(screens.length, listScreens(process.cwd()).length + 1);
});

for (const { name } of BUILDS) {
  test(`${name}: prerendered to ${NAME}/index.html with its heading and text, precached, and linked from every page's navigation`, () => {
    const dist = dists[name];
    const html = readFileSync(path.join(dist, NAME, 'index.html'), 'utf8');
    assert.match(html, `<h1>${TITLE}</h1><p>${TEXT}</p>`);
    assert.match(html, `<title>${TITLE} · `);
    assert.match(html, new RegExp(`<a href="/${NAME}/" aria-current="page">${TITLE}</a></nav>`), 'its own link, current, last');
    assert.ok(`/${NAME}/` in readPrecache(dist), 'precache.json lists it');
    for (const screen of listScreens(project)) {
      const page = readFileSync(path.join(dist, screen.path.slice(1), 'index.html'), 'utf8');
      assert.match(page, new RegExp(`<a href="/${NAME}/"[^>]*>${TITLE}</a></nav>`), `the navigation of ${screen.path}`);
    }
    assert.match(readFileSync(path.join(dist, '404.html'), 'utf8'), `<a href="/${NAME}/">${TITLE}</a></nav>`);
  });

  test(`${name}: works offline in Chromium, from the worker's cache with the server stopped`, async ({ browser }) => {
    const host = await startHost('preview', dists[name]);
    const context = await freshContext(browser);
    try {
      const page = await openInstalled(context, host.url);
      const problems = watchConsole(page);
      // Online, a click on its link shows it without a page load, as any screen.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: TITLE }).click();
      await settle(page, TITLE);
      assert.is(new URL(page.url()).pathname, `/${NAME}/`);
      await host.pause();
      const response = await page.goto(new URL(`/${NAME}/`, host.url).href);
      assert.ok(response?.fromServiceWorker(), 'the worker answered the navigation');
      await settle(page, TITLE);
      assert.is(await page.getByText(TEXT).count(), 1);
      assert.is(await page.title(), `${TITLE} · ${APP_NAME}`);
      // (The reconnect probe's refused HEAD /sw.js is the server being down, not the page.)
      assert.equal(
        problems.filter((problem) => !problem.includes('/sw.js')),
        [],
      );
    } finally {
      await context.close();
      await host.close();
    }
  });
}

test.run();
