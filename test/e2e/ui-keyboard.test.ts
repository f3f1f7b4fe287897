// Keyboard use and client-side routing against the built site: every control reachable with Tab
// and visibly focused, the skip link, and navigation without page loads (History API).
import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { settle } from './lib/app';
import { freshContext } from './lib/browser';
import { startHost } from './lib/hosts';
import { APP_NAME, BUILDS, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { WAIT } from './lib/wait';
import { HOME, SCREENS } from './lib/screens';

/** What can take keyboard focus, in DOM order (the app uses no positive tabindex). */
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** The focusable elements of the page as "index tag text", and where Tab goes, with its outline. */
async function tabWalk(page: Page) {
  const expected = await page.evaluate(
    (sel) =>
      [...document.querySelectorAll(sel)]
        .filter((el) => el.getClientRects().length)
        .map((el, i) => `${i} ${el.tagName.toLowerCase()} ${(el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 30)}`),
    FOCUSABLE,
  );
  const reached: { id: string; outline: string; onScreen: boolean }[] = [];
  for (let i = 0; i < expected.length + 2; i++) {
    await page.keyboard.press('Tab');
    const f = await page.evaluate((sel) => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const all = [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length);
      const cs = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      return {
        id: `${all.indexOf(el)} ${el.tagName.toLowerCase()} ${(el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 30)}`,
        outline: `${cs.outlineStyle} ${parseFloat(cs.outlineWidth)}`,
        onScreen: r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth,
      };
    }, FOCUSABLE);
    if (!f || reached.some((r) => r.id === f.id)) break; // focus left the page or wrapped around
    reached.push(f);
  }
  return { expected, reached };
}

for (const build of BUILDS) {
  const test = suite<Shared>(`ui keyboard and routing (${build.name})`);
  shareChromium(test, () => startHost('preview', site(build.name, 'v1')));

  for (const s of SCREENS) {
    test(`${s.path}: Tab reaches every control in order, each with a visible focus outline`, async ({ browser, host }) => {
      const context = await freshContext(browser, { serviceWorkers: 'block' });
      const page = await context.newPage();
      await page.goto(new URL(s.path, host.url).href);
      await settle(page, s.h1);
      const { expected, reached } = await tabWalk(page);
      assert.ok(expected.length >= 5, `a skip link, the brand and three nav links at least: ${expected}`);
      assert.equal(
        reached.map((r) => r.id),
        expected,
      );
      for (const r of reached) {
        assert.match(r.outline, /^(solid|auto|dashed|dotted|double) ([2-9]|\d\d)/, `${r.id} has a visible outline (${r.outline})`);
        assert.ok(r.onScreen, `${r.id} is on screen when focused`);
      }
      await context.close();
    });
  }

  test('the skip link is the first Tab stop and moves focus into <main>', async ({ browser, host }) => {
    const context = await freshContext(browser, { serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(new URL('/status/', host.url).href);
    await settle(page, 'Offline readiness');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    assert.not.ok(await skip.evaluate((el) => el.getBoundingClientRect().bottom > 0), 'hidden above the page until focused');
    await page.keyboard.press('Tab');
    assert.ok(await skip.evaluate((el) => el === document.activeElement && el.getBoundingClientRect().top >= 0), 'focused and on screen');
    await page.keyboard.press('Enter');
    assert.is(await page.evaluate(() => document.activeElement?.id), 'main');
    await page.keyboard.press('Tab');
    assert.is(await page.evaluate(() => document.activeElement?.textContent), 'Check for update');
    await context.close();
  });

  test('Enter on a nav link shows the screen without a page load, moves focus to <main>, sets the title', async ({ browser, host }) => {
    const context = await freshContext(browser, { serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(host.url);
    await settle(page, HOME.h1);
    await page.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));
    await host.logged();
    const before = host.log.length;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Offline readiness' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Offline readiness' }).waitFor(WAIT);
    assert.ok(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce), 'same document: no page load');
    assert.not.ok(
      host.log.slice(before).some((r) => r.url.startsWith('/status')),
      'the server was not asked for /status/',
    );
    assert.is(new URL(page.url()).pathname, '/status/');
    assert.is(await page.title(), `Offline readiness · ${APP_NAME}`);
    assert.is(await page.evaluate(() => document.activeElement?.id), 'main');
    assert.is(await page.locator('nav a[aria-current="page"]').textContent(), 'Offline readiness');

    await page.goBack();
    await page.getByRole('heading', { level: 1, name: HOME.h1 }).waitFor(WAIT);
    assert.is(await page.title(), `${HOME.h1} · ${APP_NAME}`);
    await page.goForward();
    await page.getByRole('heading', { level: 1, name: 'Offline readiness' }).waitFor(WAIT);
    assert.ok(
      await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce),
      'Back and Forward: still no page load',
    );
    assert.not.ok(
      host.log.slice(before).some((r) => r.url === '/' || r.url.startsWith('/status')),
      'the server saw no navigation',
    );
    await context.close();
  });

  test('Ctrl+click on a nav link opens it in a new tab and leaves this page where it is', async ({ browser, host }) => {
    const context = await freshContext(browser, { serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(host.url);
    await settle(page, HOME.h1);
    const opened = context.waitForEvent('page', WAIT);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'What this app ships' })
      .click({ modifiers: ['Control'] });
    const tab = await opened;
    await tab.waitForURL(/\/about\/$/, WAIT);
    assert.is(new URL(page.url()).pathname, '/');
    assert.is(await page.getByRole('heading', { level: 1 }).textContent(), HOME.h1);
    await context.close();
  });

  test.run();
}
