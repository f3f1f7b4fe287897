// Bad device storage in real Chromium: a real full quota, corrupt stored data, and a profile
// that blocks site data (reading window.localStorage throws SecurityError).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILDS, CHROME_ARGS, launch, preview, watchProblems } from './helpers';
import { firstNote, openNotes, sleep, until } from './reconnect-helpers';

const KEY = 'offline-shell:notes';
const notice = (page: Page) => page.locator('main .notice');

for (const build of BUILDS) {
  const test = suite(`notes, bad storage (${build.name})`);
  let browser: Browser;
  const host = preview(build.dir);
  test.before(async () => {
    browser = await launch();
  });
  test.after(async () => {
    await browser.close();
    await (await host).close();
  });

  test('a full storage shows "Not saved: storage is full", keeps the text on screen, and saves once there is room', async () => {
    const { url } = await host;
    const context = await browser.newContext({ serviceWorkers: 'allow' });
    const page = await context.newPage();
    await openNotes(page, url);
    await firstNote(page).fill('saved before the disk filled up');
    await sleep(1200);
    // Fill this origin's real localStorage quota with another key, to the last few characters.
    const fillers = await page.evaluate(() => {
      let chunk = 'x'.repeat(1 << 20);
      let i = 0;
      for (;;) {
        try {
          localStorage.setItem('filler-' + i, chunk);
          i++;
        } catch {
          if (chunk.length <= 8) return i;
          chunk = chunk.slice(chunk.length / 2);
        }
      }
    });
    assert.ok(fillers > 5, 'the quota is real (several MB)');
    const longer = 'saved before the disk filled up, and this added while it was full';
    await firstNote(page).fill(longer);
    await until(async () => (await notice(page).innerText()).includes('Not saved: storage is full'), 3000, 'the notice');
    assert.is(await firstNote(page).inputValue(), longer, 'the text stays on screen');
    assert.match(await page.evaluate((k) => localStorage.getItem(k) ?? '', KEY), 'saved before the disk filled up"', 'the last good save is intact');
    // The user makes room; the next save goes through and the notice goes away.
    await page.evaluate(() => localStorage.removeItem('filler-0'));
    await firstNote(page).press('End');
    await page.keyboard.type('!');
    await until(async () => (await notice(page).innerText()) === '', 3000, 'the notice to go');
    await page.reload();
    await firstNote(page).waitFor();
    assert.is(await firstNote(page).inputValue(), longer + '!');
    await context.close();
  });

  test('corrupt stored notes do not crash the app: a one-line notice, the raw text kept under a backup key', async () => {
    const { url } = await host;
    const context = await browser.newContext({ serviceWorkers: 'allow' });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await openNotes(page, url);
    const raw = '{"v":1,"notes":[{"id":"a","text":"half of a lo';
    await page.evaluate(([k, v]) => localStorage.setItem(k, v), [KEY, raw]);
    await page.reload();
    await firstNote(page).waitFor();
    assert.match(await notice(page).innerText(), 'could not be read');
    assert.is(await page.evaluate((k) => localStorage.getItem(k + ':backup'), KEY), raw);
    await firstNote(page).fill('the app still works');
    await sleep(1200);
    await page.reload();
    await firstNote(page).waitFor();
    assert.is(await firstNote(page).inputValue(), 'the app still works');
    assert.is(await notice(page).innerText(), '', 'the notice was for that one load');
    assert.equal(problems, []);
    await context.close();
  });

  test('storage disabled (site data blocked): a notice, and the notes work for the session', async () => {
    const { url } = await host;
    const profile = mkdtempSync(path.join(os.tmpdir(), 'offline-shell-blocked-'));
    // Chromium's "block all site data" setting, as a user or policy sets it.
    mkdirSync(path.join(profile, 'Default'));
    writeFileSync(path.join(profile, 'Default', 'Preferences'), JSON.stringify({ profile: { default_content_setting_values: { cookies: 2 } } }));
    const context = await chromium.launchPersistentContext(profile, { executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', headless: true, args: CHROME_ARGS });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await openNotes(page, url);
      assert.ok(await page.evaluate(() => { try { return !localStorage; } catch { return true; } }), 'storage really is blocked');
      assert.match(await notice(page).innerText(), 'keeps no data here');
      await firstNote(page).fill('kept for this session');
      await page.getByRole('button', { name: 'Add note' }).click();
      await page.getByRole('textbox', { name: 'Note 2' }).waitFor();
      await sleep(1200);
      assert.is(await firstNote(page).inputValue(), 'kept for this session');
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    }
  });

  test('the Notes screen and its notices pass axe, and work from the keyboard', async () => {
    const { url } = await host;
    // bypassCSP only to inject axe-core; the app itself runs under the site's CSP in every other test.
    const context = await browser.newContext({ serviceWorkers: 'allow', bypassCSP: true });
    const page = await context.newPage();
    await openNotes(page, url);
    await page.evaluate((k) => localStorage.setItem(k, '{not json'), KEY);
    await page.reload();
    await firstNote(page).waitFor();
    await context.setOffline(true);
    await page.getByText('You are offline').waitFor();
    await page.addScriptTag({ path: 'node_modules/axe-core/axe.min.js' });
    const violations = await page.evaluate(async () => {
      // `any`: axe-core's global, injected above, has no types here.
      const r = await (window as any).axe.run({ include: [['main'], ['.banners']] });
      return r.violations.map((v: { id: string; nodes: unknown[] }) => `${v.id} (${v.nodes.length})`);
    });
    assert.equal(violations, []);
    // Keyboard only: from the first note, Tab reaches its Delete, then Add note.
    await firstNote(page).focus();
    await page.keyboard.press('Tab');
    assert.is(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Delete note 1');
    await page.keyboard.press('Tab');
    assert.is(await page.evaluate(() => document.activeElement?.textContent), 'Add note');
    await page.keyboard.press('Enter');
    await until(() => page.evaluate(() => document.activeElement?.id.startsWith('note-') && document.activeElement.tagName === 'TEXTAREA'), 2000, 'focus on the new note');
    await page.keyboard.type('typed without a mouse');
    assert.is(await page.getByRole('textbox', { name: 'Note 2' }).inputValue(), 'typed without a mouse');
    await context.close();
  });

  test.run();
}
