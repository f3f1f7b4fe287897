// The shell's guarantees on an app that is not ours, in Chromium: a checklist (test/fixtures/checklist/)
// built from the shell with the demo removed (npm run remove-demo), its new item's text in
// component state and its items stored through createDeviceDocument. It type-checks and builds;
// a first visit fetches each of its files once; every route renders offline; its stored items
// survive a reload offline; "Reload to update" brings its new version with the field and caret as
// they were; evicted files come back verified, each asked of the server once; its kill switch
// reloads it from the network with the field as it was. Typing through a reconnect into its field
// is engines-second-app.test.ts 10f, in Chromium, Firefox and WebKit.
import type { BrowserContext, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listScreens } from '../../tools/screens.mjs';
import { countLoads, headingAt, newWatchedPage, waitReady } from './lib/app';
import { clearHttpCache, freshContext, goOffline } from './lib/browser';
import { cachedSri, evict } from './lib/caches';
import { logKinds } from './lib/connectivity-log';
import { requestsSince, startHost } from './lib/hosts';
import { buildChecklistApp, checklistOf, checklistWith, NEW_ITEM, type ChecklistApp } from './lib/checklist-app';
import { appScript, cleanup, readPrecache } from './lib/site';
import { sharedBuild } from './lib/shared-build';
import { shareChromium, type Shared } from './lib/suite';
import { until, WAIT } from './lib/wait';
import { caretOf } from './lib/field';

const test = suite<Shared>('the shell on a second app: a checklist');
let app: ChecklistApp;
shareChromium(test, async () => {
  // The same build as engines-second-app.test.ts's, made once in the run (shared-build.ts).
  app = await sharedBuild('checklist-app', buildChecklistApp);
  return startHost('preview', app.dist);
});
test.after.each(async ({ host }) => {
  await host.setRoot(app.dist);
});
test.after(cleanup);

/** A new page of `context` with the checklist installed (the worker controls it), its console watched. */
async function openChecklist(context: BrowserContext, url: string) {
  const visit = await newWatchedPage(context);
  await visit.page.goto(url);
  await waitReady(visit.page);
  return visit;
}

/** Types `text` into the new item's field, as a person does. */
async function typeItem(page: Page, text: string): Promise<void> {
  await page.getByLabel(NEW_ITEM.label).click();
  await page.keyboard.type(text);
}

/** Waits until the reloaded page logged the fields' restore (the last step of its start), then returns what the checklist shows. */
async function restoredChecklist(page: Page) {
  await until('the reloaded page to log the fields it restored', async () =>
    (await logKinds(page).catch((): string[] => [])).includes('fields-restored'),
  );
  return checklistOf(page);
}

test('its screens are its own: the checklist at /, no Notes', () => {
  const screens = listScreens(app.project);
  assert.equal(screens[0], { name: 'index', path: '/', title: 'Checklist', navOrder: 1, file: 'src/ui/screens/index.tsx' });
  assert.not.ok(screens.some((screen) => screen.title === 'Notes'));
});

test('a first visit fetches each of its precached files once; every route renders offline, its items kept', async ({ browser, host }) => {
  const context = await freshContext(browser);
  const { page, problems } = await openChecklist(context, host.url);
  await host.logged();
  const requested = host.log.filter((request) => request.method === 'GET' && !request.revalidation).map((request) => request.url);
  const notOnce = Object.keys(readPrecache(app.dist)).filter((url) => requested.filter((asked) => asked === url).length !== 1);
  assert.equal(notOnce, [], 'each precached file requested once');

  await page.getByLabel(NEW_ITEM.label).fill('buy milk');
  await page.getByRole('button', { name: 'Add' }).click();
  await goOffline(context, page);
  for (const screen of listScreens(app.project))
    assert.is(await headingAt(page, new URL(screen.path, host.url).href), screen.title, screen.path);
  await page.goto(host.url);
  await page.locator('.checklist li').first().waitFor(WAIT);
  assert.equal((await checklistOf(page)).items, ['buy milk'], 'the stored item, offline after a reload');
  assert.equal(problems, []);
  await context.close();
});

test('"Reload to update": its new version, the field as it was, the caret in it', async ({ browser, host }) => {
  const context = await freshContext(browser);
  const { page, problems } = await openChecklist(context, host.url);
  await host.setRoot(app.v2);
  await page.getByRole('link', { name: 'Offline readiness' }).click();
  await page.getByRole('button', { name: 'Check for update' }).click();
  await page.getByText('A new version is ready').waitFor(WAIT);
  await page.getByRole('link', { name: 'Checklist' }).click();
  const text = 'an update does not lose this';
  await typeItem(page, text);
  const loads = countLoads(page);
  await page.getByRole('button', { name: 'Reload to update' }).click();
  await until('the new version', () => page.evaluate(() => document.documentElement.dataset.variant === 'v2').catch(() => false));
  assert.equal(await restoredChecklist(page), checklistWith(text));
  assert.equal(await caretOf(page), { id: NEW_ITEM.id, start: text.length, end: text.length });
  assert.is(loads.n, 1, 'one reload');
  assert.equal(problems, []);
  await context.close();
});

test('evicted files come back verified: its script and its page, each asked of the server once', async ({ browser, host }) => {
  const context = await freshContext(browser);
  const { page } = await openChecklist(context, host.url);
  const manifest = readPrecache(app.dist);
  const evicted = ['/' + appScript(app.dist), '/'];
  await evict(page, evicted);
  assert.equal(await cachedSri(page, evicted), [null, null], 'both entries are gone');
  // The page loaded both itself: without this the worker could take its verified copies from the HTTP cache.
  await clearHttpCache(page);
  await host.logged();
  const from = host.log.length;
  assert.is(await headingAt(page, host.url), 'Checklist');
  await until('both entries back in the cache', async () => (await cachedSri(page, evicted)).every(Boolean));
  assert.equal(await cachedSri(page, evicted), [manifest[evicted[0]], manifest['/']], 'the bytes the build hashed');
  const asked = requestsSince(host, from).filter((url) => url !== '/sw.js');
  assert.equal(asked.sort(), [...evicted].sort(), 'each evicted file once, nothing that was still cached');
  await context.close();
});

test('its kill switch: the page it reloads comes from the network, the field as it was', async ({ browser, host }) => {
  const context = await freshContext(browser);
  const { page } = await openChecklist(context, host.url);
  const text = 'the kill switch does not lose this';
  await typeItem(page, text);
  const loads = countLoads(page);
  await host.setRoot(app.kill);
  // Another tab of the app opens: its navigation makes the browser check /sw.js, the kill switch
  // takes over and reloads every page of the app, this one too.
  const other = await context.newPage();
  await other.goto(host.url);
  await until('the kill switch to reload the checklist', () => loads.n >= 1);
  // The page may load twice (its own reload onto the new worker, then the kill switch's
  // navigation): the positive signal is the field as it was.
  await until('the field back', async () => (await checklistOf(page).catch(() => null))?.field === text);
  assert.equal(await checklistOf(page), checklistWith(text));
  assert.is(await page.evaluate(() => navigator.serviceWorker.controller), null, 'the page came from the network, with no worker');
  await context.close();
});

test.run();
