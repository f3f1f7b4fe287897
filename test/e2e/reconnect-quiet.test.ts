// The reload no one notices, in real Chromium: a reload the app makes on its own waits for a quiet
// moment (an open IME composition holds it), brings the person back to the same field, caret and
// scroll, happens once in each of several tabs with one probe shared between them, and a tab that
// comes back (shown again, or restored from the back/forward cache) finds a new version.
// Typing through a reconnect in every engine is in engines.test.ts (scenario 3e, on a form of its own).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appRunning, countLoads, openInstalled, reconnectReloaded, typeSteadily } from './lib/app';
import { freshContext, launchWithTabs } from './lib/browser';
import { isProbe, startHost, type Host } from './lib/hosts';
import { BUILDS, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { until, WAIT } from './lib/wait';
import { logLines } from './lib/connectivity-log';
import { appField, caretOf, fieldScreenUrl, openFieldScreen, openFieldWatched } from './lib/field';
import { FIELD_SCREEN } from './lib/screens';

/** Takes the network away and waits until the page says so. */
async function goOffline(context: BrowserContext, page: Page): Promise<void> {
  await context.setOffline(true);
  await page.getByText('You are offline; everything here still works.').waitFor(WAIT);
}

for (const build of BUILDS) {
  const test = suite<Shared>(`reload at a quiet moment (${build.name})`);
  // When set, the preview server holds the next probe without answering (a probe still on its way).
  let holdNextProbe = false;
  const held: ServerResponse[] = [];
  const holdProbe = (req: IncomingMessage, res: ServerResponse) => {
    if (!holdNextProbe || !isProbe({ method: req.method ?? '', url: req.url ?? '' })) return false;
    holdNextProbe = false;
    held.push(res);
    return true;
  };
  shareChromium(test, () => startHost('preview', site(build.name, 'v1'), { intercept: holdProbe }));

  test('an IME composition open when the network returns holds the reload until it is committed; the text and caret come back', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    const { page, problems } = await openFieldWatched(context, host.url);
    await appField(page).fill('before ');
    const loads = countLoads(page);
    await goOffline(context, page);
    const devtools = await context.newCDPSession(page);
    // What an input method sends while the person picks characters: a composition stays open.
    await devtools.send('Input.imeSetComposition', { text: 'にほ', selectionStart: 2, selectionEnd: 2 });
    await context.setOffline(false);
    // The positive signal: the moment the reload was due, the page logged what it waits for.
    await until('the reload to wait for the composition', async () => (await logLines(page)).includes('reload-waits: composing'));
    assert.is(loads.n, 0, 'no reload while composing');
    await devtools.send('Input.insertText', { text: '日本' });
    await reconnectReloaded(page, loads);
    assert.is(loads.n, 1);
    assert.is(await appField(page).inputValue(), 'before 日本');
    assert.equal(
      await caretOf(page),
      { id: await appField(page).getAttribute('id'), start: 9, end: 9 },
      'the same field, the caret after the committed text',
    );
    assert.equal(problems, []);
    await context.close();
  });

  test('on a page longer than the window, the window scroll, the focused field and its caret come back after the reconnect reload', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    const page = await context.newPage();
    // A window a third of a phone's height: the field's screen is longer than it, whatever the app.
    await page.setViewportSize({ width: 360, height: 240 });
    await openFieldScreen(page, host.url);
    await appField(page).fill('a field on a page longer than the window');
    await appField(page).evaluate((field: HTMLTextAreaElement) => field.setSelectionRange(5, 11));
    await page.evaluate(() => scrollTo(0, (document.documentElement.scrollHeight - innerHeight) / 2));
    const before = { scrollY: await page.evaluate(() => scrollY), caret: await caretOf(page) };
    assert.ok(before.scrollY > 100, `scrolled down the page: ${before.scrollY}`);
    assert.equal(before.caret && { start: before.caret.start, end: before.caret.end }, { start: 5, end: 11 }, 'the field has the focus');
    const loads = countLoads(page);
    await goOffline(context, page);
    await context.setOffline(false);
    await reconnectReloaded(page, loads);
    await until('the focus back in the field', async () => (await caretOf(page))?.id === before.caret?.id);
    assert.equal(await caretOf(page), before.caret, 'the same field, the same selection');
    assert.is(await page.evaluate(() => scrollY), before.scrollY, 'the same scroll');
    await context.close();
  });

  test('a probe partner that closes while it probes: the other tab still reloads, after its own probe', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const first = await context.newPage();
    const second = await context.newPage();
    await openFieldScreen(first, host.url);
    await openFieldScreen(second, host.url);
    const loads = countLoads(second);
    const probesBefore = host.log.filter(isProbe).length;
    const probingPage = new Promise<Page>((resolve) => {
      for (const page of [first, second]) page.on('request', (request) => request.method() === 'HEAD' && resolve(page));
    });
    holdNextProbe = true;
    await goOffline(context, first);
    await context.setOffline(false);
    // Both tabs want to probe about a second later; one holds the lock while the server holds its probe.
    const partner = await probingPage;
    await until('the held probe at the server', () => held.length === 1);
    const survivor = partner === first ? second : first;
    const survivorLoads = survivor === second ? loads : countLoads(survivor);
    await partner.close();
    await reconnectReloaded(survivor, survivorLoads);
    assert.is(survivorLoads.n, 1, 'one reload in the tab that stayed');
    const lines = await logLines(survivor);
    assert.equal(lines.slice(-2), ['probe-ok', 'reload'], 'it asked the server itself');
    assert.is(host.log.filter(isProbe).length - probesBefore, 2, 'the held probe, then its own');
    for (const response of held.splice(0)) response.destroy();
    await context.close();
  });

  test('"Reload to update" lands on the same field with the caret where it was', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const page = await openInstalled(context, fieldScreenUrl(host.url));
    await host.setRoot(site(build.name, 'v2'));
    try {
      await page.getByRole('link', { name: 'Offline readiness' }).click();
      await page.getByRole('button', { name: 'Check for update' }).click();
      await page.getByText('A new version is ready').waitFor(WAIT);
      await page.getByRole('link', { name: FIELD_SCREEN.h1, exact: true }).click();
      await appField(page).fill('an update does not lose my place');
      await appField(page).evaluate((field: HTMLTextAreaElement) => field.setSelectionRange(3, 9, 'backward'));
      const caret = await caretOf(page);
      assert.equal(caret && { start: caret.start, end: caret.end }, { start: 3, end: 9 }, 'a selection inside the text');
      await page.getByRole('button', { name: 'Reload to update' }).click();
      await until('the new version', () => page.evaluate(() => document.documentElement.dataset.variant === 'v2').catch(() => false));
      await until('the focus back in the field', async () => (await caretOf(page))?.id === caret?.id);
      assert.equal(await caretOf(page), caret);
      assert.is(await page.evaluate(() => document.querySelector<HTMLTextAreaElement>(':focus')?.selectionDirection), 'backward');
    } finally {
      await host.setRoot(site(build.name, 'v1'));
      await context.close();
    }
  });

  test.run();
}

/** Opens `url` in a new window of the browser that launchWithTabs() attached to (its front tab is visible). */
async function openWindow(browser: Browser, url: string): Promise<Page> {
  const context = browser.contexts()[0];
  const opened = context.waitForEvent('page');
  const devtools = await browser.newBrowserCDPSession();
  await devtools.send('Target.createTarget', { url, newWindow: true });
  await devtools.detach();
  return opened;
}

const visibility = (page: Page) => page.evaluate(() => document.visibilityState);

/** How many times `host` was asked for the worker's script (GET /sw.js): update checks and registrations. */
const scriptGets = (host: Host) => host.log.filter((request) => request.url === '/sw.js' && request.method === 'GET').length;

/** Where a page keeps its visibility changes, each with the page's clock (recordVisibility()). */
const VISIBILITY_LOG = '__visibilityChanges';

/** Makes every page of `context` record its visibility changes with the page's clock, for failure messages. */
const recordVisibility = (context: BrowserContext) =>
  context.addInitScript((key) => {
    const changes: string[] = [];
    Object.assign(window, { [key]: changes });
    document.addEventListener('visibilitychange', () => changes.push(`${document.visibilityState} at ${new Date().toISOString()}`));
  }, VISIBILITY_LOG);

/**
 * For a failure message: the tab's visibility, clock and visibility changes, its registration's
 * workers, and the host's GET /sw.js count then and now.
 */
async function whereTheUpdateIs(page: Page, host: Host, scriptChecksBefore: number): Promise<string> {
  const scriptChecks = scriptGets(host);
  const tab = await page
    .evaluate(async (key) => {
      const registration = await navigator.serviceWorker.getRegistration();
      const workers = registration && {
        installing: registration.installing?.state ?? null,
        waiting: registration.waiting?.state ?? null,
        active: registration.active?.state ?? null,
      };
      const changes: unknown = Reflect.get(window, key);
      return { visibility: document.visibilityState, now: new Date().toISOString(), changes, workers };
    }, VISIBILITY_LOG)
    .catch((error: Error) => error.message);
  return JSON.stringify({ tab, scriptChecksBefore, scriptChecks, log: await logLines(page).catch(() => []) });
}

for (const build of BUILDS) {
  const test = suite(`reload at a quiet moment, real tabs (${build.name})`);
  let host: Host;
  let chromium: Awaited<ReturnType<typeof launchWithTabs>>;

  test.before.each(async () => {
    host = await startHost('preview', site(build.name, 'v1'));
    chromium = await launchWithTabs();
  });
  test.after.each(async () => {
    await chromium?.close();
    await host?.close();
  });

  test('three tabs (typing, idle, hidden): each reloads once at its own moment, fewer probes than tabs, every key kept', async () => {
    const context = chromium.browser.contexts()[0];
    const typing = context.pages()[0] ?? (await context.newPage());
    await openFieldScreen(typing, host.url);
    const idle = await openWindow(chromium.browser, fieldScreenUrl(host.url));
    const hidden = await context.newPage(); // a second tab of the idle tab's window
    await openFieldScreen(hidden, host.url);
    await idle.bringToFront(); // the hidden tab goes to the background
    await appRunning(idle);
    await appField(idle).waitFor(WAIT);
    await until(
      'the tabs to be visible, visible, hidden',
      async () => [await visibility(typing), await visibility(idle), await visibility(hidden)].join() === 'visible,visible,hidden',
    );
    const loads = { typing: countLoads(typing), idle: countLoads(idle), hidden: countLoads(hidden) };
    const probesBefore = host.log.filter(isProbe).length;

    await context.setOffline(true);
    await typing.getByText('You are offline').waitFor(WAIT);
    await appField(typing).click();
    // Keys every 90 ms from before the network returns until the idle tab has reloaded and 2.5 s
    // more (past the 2 s quiet time): the typing tab's reload was due all along.
    let keysWhenIdleReloaded = 0;
    const typed = await typeSteadily(typing, 90, async (count) => {
      if (count === 5) await context.setOffline(false);
      if (count > 5 && loads.idle.n > 0 && !keysWhenIdleReloaded) keysWhenIdleReloaded = count;
      return !keysWhenIdleReloaded || count < keysWhenIdleReloaded + 28;
    });
    assert.is(loads.typing.n, 0, 'the typing tab did not reload while keys arrived');
    assert.is(await appField(typing).inputValue(), typed, 'every key reached the field');
    await reconnectReloaded(idle, loads.idle);
    await reconnectReloaded(typing, loads.typing);
    assert.is(await appField(typing).inputValue(), typed, 'every key kept across the reload');
    assert.is(loads.hidden.n, 0, 'the hidden tab waits');
    assert.ok((await logLines(hidden)).includes('reload-waits: hidden tab'), 'and says why');
    await hidden.bringToFront();
    await reconnectReloaded(hidden, loads.hidden);
    assert.equal([loads.typing.n, loads.idle.n, loads.hidden.n], [1, 1, 1], 'one reload in each tab');
    const probes = host.log.filter(isProbe).length - probesBefore;
    const shared = (await Promise.all([typing, idle, hidden].map(logLines))).filter((lines) =>
      lines.includes('probe-ok: answered in another tab'),
    ).length;
    console.log(`  three tabs (${build.name}): ${probes} probe(s) reached the server, ${shared} tab(s) used another tab's answer`);
    assert.ok(probes < 3 && shared >= 1, `the tabs shared their probes: ${probes} probes, ${shared} shared`);
  });

  test('v2 deployed while a tab is hidden: shown again after more than a minute, it offers the new version', async () => {
    const context = chromium.browser.contexts()[0];
    await context.clock.install();
    await recordVisibility(context);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(host.url);
    await page.getByText('Ready to work offline').waitFor({ timeout: 15_000 });
    const other = await context.newPage(); // the person switches to another tab
    await until('the app tab to be hidden', async () => (await visibility(page)) === 'hidden');
    await host.setRoot(site(build.name, 'v2'));
    const scriptChecks = scriptGets(host);
    await context.clock.fastForward('01:05'); // an hour on the clock is the regular check: a minute and a bit is not
    // The other tab in front once more, so the app tab's next showing is the one after the minute
    // whatever the window did meanwhile (the failure message lists the tab's visibility changes).
    await other.bringToFront();
    await until('the app tab to be hidden after the minute', async () => (await visibility(page)) === 'hidden');
    await page.bringToFront();
    // The check, then the new version's whole install (every file fetched, hashed and stored): as
    // long as a first install may take.
    await page
      .getByText('A new version is ready')
      .waitFor({ timeout: 15_000 })
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\n  what the tab knew then: ${await whereTheUpdateIs(page, host, scriptChecks)}`);
      });
    assert.ok(scriptGets(host) > scriptChecks, 'it asked for sw.js');
    assert.ok(await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting), 'a worker waits');
    await other.close();
  });

  test('restored from the back/forward cache after more than a minute, a tab offers the new version', async () => {
    const context = chromium.browser.contexts()[0];
    await context.clock.install();
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(host.url);
    await page.getByText('Ready to work offline').waitFor({ timeout: 15_000 });
    await page.evaluate(() => ((window as Window & { __sameDocument?: boolean }).__sameDocument = true));
    await page.goto(new URL('/robots.txt', host.url).href);
    await host.setRoot(site(build.name, 'v2'));
    await context.clock.fastForward('01:05');
    // A page restored from the cache fires no `load` (it fires `pageshow`): wait for the commit.
    // Playwright's own launch turns the back/forward cache off; launchWithTabs() leaves it on.
    await page.goBack({ waitUntil: 'commit' });
    await until('the page back', () => page.evaluate(() => location.pathname === '/').catch(() => false));
    assert.ok(
      await page.evaluate(() => (window as Window & { __sameDocument?: boolean }).__sameDocument),
      'restored from the back/forward cache, not loaded again',
    );
    await page.getByText('A new version is ready').waitFor(WAIT);
  });

  test.run();
}
