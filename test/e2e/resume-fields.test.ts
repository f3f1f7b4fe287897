// Nothing typed into a builder's form is lost to a reload the shell makes, in real Chromium on both
// builds: the fixture screen (test/fixtures/screens/message.tsx, in the `form` test sites) keeps
// every field in component state and saves nothing itself. Through "Reload to update" and the kill
// switch, every control comes back into the component's state, the focus and caret where they
// were, once, and the password empty. The reconnect's reload is engines.test.ts scenario 3e, in
// every engine on both builds.
import { isDeepStrictEqual } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { countLoads, newWatchedPage, waitReady } from './lib/app';
import { freshContext } from './lib/browser';
import { logKinds, logLines } from './lib/connectivity-log';
import { startHost } from './lib/hosts';
import { MESSAGE_PATH, MESSAGE_TITLE, messageForm, stateLine, type MessageForm } from './lib/message-form';
import { variant } from './lib/screens';
import { BUILDS, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { until, WAIT } from './lib/wait';
import { caretOf } from './lib/field';

/** What the person puts in the form before the reload, the message text aside. */
const FILLED = { to: 'ada@example.org', priority: 'high', urgent: true };

/** The log line of a restore that put back the four fields the person changed (the password is never kept). */
const ALL_BACK = 'fields-restored: 4 of 4 came back';

/** Opens the form installed (the worker controls the page) in a new page of `context`, its console watched. */
async function openForm(context: BrowserContext, url: string): Promise<{ page: Page; problems: string[] }> {
  const visit = await newWatchedPage(context);
  await visit.page.goto(new URL(MESSAGE_PATH, url).href);
  await waitReady(visit.page);
  return visit;
}

/** Fills every control as a person does (the keyboard, a click, the select's own choice), then puts the caret in the message. */
async function fillForm(page: Page, text: string): Promise<void> {
  await page.getByLabel('To').pressSequentially(FILLED.to);
  await page.getByLabel('Priority').selectOption(FILLED.priority);
  await page.getByLabel('Urgent').check();
  await page.getByLabel('Password').pressSequentially('secret');
  await page.getByLabel('Your message').click();
  await page.keyboard.type(text);
}

/** The form as it must be after the reload: every control as the person left it, the password empty, the component's state the same. */
function expectedForm(text: string): MessageForm {
  const shown = { ...FILLED, text, password: '' };
  return { ...shown, state: stateLine(shown) };
}

/** Waits until the reloaded page logged the fields' restore (the last step of its start), then returns its form. */
async function restoredForm(page: Page): Promise<MessageForm | null> {
  await until('the reloaded page to log the fields it restored', async () =>
    (await logKinds(page).catch((): string[] => [])).includes('fields-restored'),
  );
  return messageForm(page);
}

for (const build of BUILDS) {
  const test = suite<Shared>(`fields kept across the shell's reloads (${build.name})`);
  const form = site(build.name, 'form');
  shareChromium(test, () => startHost('preview', form));
  test.after.each(async ({ host }) => {
    await host.setRoot(form);
  });

  test('"Reload to update": every control of the form comes back on the new version, the selection in the message as it was', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    const { page, problems } = await openForm(context, host.url);
    await host.setRoot(site(build.name, 'form-v2'));
    await page.getByRole('link', { name: 'Offline readiness' }).click();
    await page.getByRole('button', { name: 'Check for update' }).click();
    await page.getByText('A new version is ready').waitFor(WAIT);
    await page.getByRole('link', { name: MESSAGE_TITLE, exact: true }).click();
    const text = 'an update does not lose this';
    await fillForm(page, text);
    // A selection inside the text: the framework writes the restored value once more as it renders,
    // which would put the caret at the end; the selection must survive that.
    await page.getByLabel('Your message').evaluate((field: HTMLTextAreaElement) => field.setSelectionRange(3, 9, 'backward'));
    const loads = countLoads(page);
    await page.getByRole('button', { name: 'Reload to update' }).click();
    await until('the new version', () => page.evaluate(() => document.documentElement.dataset.variant === 'v2').catch(() => false));
    assert.is(await variant(page), 'v2');
    assert.equal(await restoredForm(page), expectedForm(text));
    // The button took the focus; the field being typed in is where the person comes back.
    assert.equal(await caretOf(page), { id: 'message-text', start: 3, end: 9 });
    assert.is(await page.evaluate(() => document.querySelector<HTMLTextAreaElement>(':focus')?.selectionDirection), 'backward');
    assert.is((await logLines(page)).at(-1), ALL_BACK);
    assert.is(loads.n, 1, 'one reload');
    assert.equal(problems, []);
    await context.close();
  });

  test('the kill switch: the page it reloads shows every control as it was, the password empty', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const { page } = await openForm(context, host.url);
    const text = 'the kill switch does not lose this';
    await fillForm(page, text);
    const loads = countLoads(page);
    await host.setRoot(site(build.name, 'form-kill'));
    // Another tab of the app opens: its navigation makes the browser check /sw.js, the kill switch
    // takes over and reloads every page of the app, this form's too.
    const other = await context.newPage();
    await other.goto(host.url);
    await until('the kill switch to reload the form', () => loads.n >= 1);
    // The page may load twice (its own reload onto the new worker, then the kill switch's
    // navigation): the positive signal is the form as it was, with the log saying so.
    const expected = expectedForm(text);
    let shown: MessageForm | null = null;
    await until('every control back', async () => {
      shown = await messageForm(page).catch(() => null);
      return isDeepStrictEqual(shown, expected);
    }).catch(() => assert.equal(shown, expected));
    assert.ok((await logLines(page)).includes(ALL_BACK));
    assert.is(await page.evaluate(() => navigator.serviceWorker.controller), null, 'the page came from the network, with no worker');
    await context.close();
  });

  test.run();
}
