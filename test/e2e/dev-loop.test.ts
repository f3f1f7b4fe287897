// The builder's dev loop keeps their work (issue 51): in a copy with a screen of theirs (a form in
// `useState`, as long as a page), `npm run dev` reloads on every save back onto the same screen
// with every field, the focus, the caret and the scroll; a field a save took away is named in the
// terminal. A syntax error shows in the page (file:line:column, message, code) as an alert dialog
// within a second, also in a page opened while it stands, and goes when fixed, the work kept; an
// uncaught error shows there too. And nothing of the dev client is in a production build.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runBuild, startServing, type Running } from './lib/builder';
import { freshContext } from './lib/browser';
import { cleanup, copySources } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { until } from './lib/wait';
import { listScreens } from '../../tools/screens.mjs';

/** The builder's screen: a name, title and place no app screen has. */
const NAME = 'dev-loop-probe';
const FILE = `src/ui/screens/${NAME}.tsx`;

/** The screen's source: a form in component state, below enough text to scroll, with `mark` drawn in its heading line. */
const formScreen = (navOrder: number, mark: string, withName = true) => `import { useState } from 'react';

export const title = 'Dev loop probe';
export const navOrder = ${navOrder};

/** A builder's form: every value in component state, nothing saved by the app. */
export default function Probe() {
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  return (
    <div>
      <p className="mark">Version ${mark}</p>
      {Array.from({ length: 60 }, (_, index) => (
        <p key={index}>Line {index} of the text above the form.</p>
      ))}
      ${
        withName
          ? `<label htmlFor="probe-name">Name</label>
      <input id="probe-name" type="text" value={name} onChange={(event) => setName(event.currentTarget.value)} />`
          : ''
      }
      <label htmlFor="probe-text">Text</label>
      <textarea id="probe-text" value={text} onChange={(event) => setText(event.currentTarget.value)} />
      <button type="button" onClick={() => { throw new Error('a probe error from a click'); }}>Throw</button>
      <p className="state">In state: {name} / {text}</p>
    </div>
  );
}
`;

/** What the page shows of the form, its focus, caret and scroll. */
const place = (page: Page) =>
  page.evaluate(() => {
    const text = document.querySelector<HTMLTextAreaElement>('#probe-text');
    return {
      mark: document.querySelector('.mark')?.textContent ?? '',
      name: document.querySelector<HTMLInputElement>('#probe-name')?.value ?? null,
      text: text?.value ?? null,
      state: document.querySelector('.state')?.textContent ?? '',
      focused: document.activeElement?.id ?? '',
      caret: [text?.selectionStart, text?.selectionEnd],
      scrollY: Math.round(window.scrollY),
    };
  });

/** A fresh profile's page on the builder's screen of the dev server, once the app runs (its fields answer input). */
async function openProbe(browser: Shared['browser'], dev: Running) {
  const context = await freshContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(new URL(`${NAME}/`, dev.url).href);
    await page.waitForFunction(() => document.documentElement.dataset.running !== undefined);
    return { context, page };
  } catch (error) {
    await context.close();
    throw error;
  }
}

const test = suite<Shared & { dir: string; dev: Running; navOrder: number }>("the dev loop keeps the builder's work (issue 51)");
shareChromium(test);

test.before(async (context) => {
  context.dir = copySources();
  context.navOrder = Math.max(...listScreens(context.dir).map((screen) => screen.navOrder)) + 1;
  writeFileSync(path.join(context.dir, FILE), formScreen(context.navOrder, '1'));
  context.dev = await startServing(context.dir, ['--watch']);
  // Node's recursive watcher is set up folder by folder, with no event for "ready"; the type
  // checker's first report comes after it (builder-session.test.ts waits the same way).
  await until("the type checker's first report", () => /^type check \(sw\): /m.test(context.dev.output()), 60_000);
});
test.after(async (context) => {
  await context.dev?.stop();
  cleanup();
});

/** Saves the screen as an editor does and waits for the page to show `mark` (the reload onto the new build). */
async function saveAndReload(page: Page, dir: string, source: string, mark: string): Promise<void> {
  writeFileSync(path.join(dir, FILE), source);
  await until(
    `the page to reload onto version ${mark}`,
    async () => (await place(page).catch(() => null))?.mark === `Version ${mark}`,
    15_000,
  );
  await page.waitForFunction(() => document.documentElement.dataset.running !== undefined);
}

test('a save reloads onto the same screen with what was typed in useState fields, the focus, the caret and the scroll', async ({
  browser,
  dir,
  dev,
  navOrder,
}) => {
  const { context, page } = await openProbe(browser, dev);
  try {
    await page.getByLabel('Name').fill('Ada');
    await page.getByLabel('Text').fill('typed before the save');
    await page.getByLabel('Text').evaluate((field: HTMLTextAreaElement) => field.setSelectionRange(6, 12));
    const before = await place(page);
    assert.ok(before.scrollY > 100, 'the form is below the fold: the page scrolled to it');
    assert.is(before.state, 'In state: Ada / typed before the save');
    let loads = 0;
    page.on('load', () => loads++);

    await saveAndReload(page, dir, formScreen(navOrder, '2'), '2');
    await until('the fields, focus and caret back', async () => (await place(page)).focused === 'probe-text', 5000);
    const after = await place(page);
    assert.is(loads, 1, 'one reload');
    assert.equal({ ...after, mark: '' }, { ...before, mark: '' }, 'fields, the state behind them, focus, caret and scroll as they were');
    assert.not.match(dev.output(), 'not put back');

    // A save that takes the Name field away: its value has nowhere to go, and the terminal says so.
    await saveAndReload(page, dir, formScreen(navOrder, '3', false), '3');
    await until(
      'the note in the terminal',
      () => /dev reload of \/dev-loop-probe\/: a field not put back \(input\[text\] id=probe-name\)/.test(dev.output()),
      5000,
    );
    assert.is((await place(page)).text, 'typed before the save', 'the field still on the screen came back');
  } finally {
    await context.close();
  }
});

test('a syntax error shows in the page within a second, naming file, line and column with the code, until it is fixed; the work is kept', async ({
  browser,
  dir,
  dev,
  navOrder,
}) => {
  const { context, page } = await openProbe(browser, dev);
  try {
    await page.getByLabel('Text').fill('kept through the error');
    const good = formScreen(navOrder, '4');
    const broken = good.replace("const [text, setText] = useState('');", "const [text, setText] = useState('';");
    const line = broken.split('\n').findIndex((candidate) => candidate.includes("useState('';")) + 1;
    const saved = performance.now();
    writeFileSync(path.join(dir, FILE), broken);
    const dialog = page.getByRole('alertdialog', { name: 'Build failed' });
    await dialog.waitFor({ timeout: 10_000 });
    const shownAfter = performance.now() - saved;
    assert.ok(shownAfter < 1000, `shown ${Math.round(shownAfter)} ms after the save`);
    const shown = (await dialog.textContent()) ?? '';
    assert.match(shown, new RegExp(`${FILE.replace(/[./]/g, '\\$&')}:${line}:\\d+: Expected "\\)" but found ";"`));
    assert.match(shown, new RegExp(`> +${line} \\| {3}const \\[text, setText\\] = useState\\('';`), 'the code frame marks the line');
    assert.ok(
      await page.evaluate(() => document.activeElement?.closest('[role="alertdialog"]') !== null),
      'the focus is in the dialog: reachable by keyboard',
    );
    // A page opened while the error stands shows it too.
    const second = await context.newPage();
    await second.goto(new URL(`${NAME}/`, dev.url).href);
    await second.getByRole('alertdialog', { name: 'Build failed' }).waitFor({ timeout: 5000 });
    await second.close();

    await saveAndReload(page, dir, good, '4');
    assert.is(await page.getByRole('alertdialog').count(), 0, 'the dialog is gone');
    assert.is((await place(page)).text, 'kept through the error');
  } finally {
    await context.close();
  }
});

test('an uncaught error shows in the page, with its message', async ({ browser, dev }) => {
  const { context, page } = await openProbe(browser, dev);
  try {
    await page.getByRole('button', { name: 'Throw' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Uncaught error' });
    await dialog.waitFor({ timeout: 5000 });
    assert.match((await dialog.textContent()) ?? '', 'a probe error from a click');
    await page.keyboard.press('Escape');
    await until('Escape to close it', async () => (await page.getByRole('alertdialog').count()) === 0, 5000);
  } finally {
    await context.close();
  }
});

test('a production build has nothing of the dev client', ({ dir }) => {
  const built = runBuild(dir, []);
  assert.is(built.code, 0, built.stderr);
  const dist = path.join(dir, 'dist');
  const files = readdirSync(dist, { recursive: true, withFileTypes: true }).filter(
    (entry) => entry.isFile() && /\.(html|js|css|json)$/.test(entry.name),
  );
  assert.ok(
    files.some((entry) => entry.name.startsWith('app-')),
    'the app was built',
  );
  for (const entry of files) {
    const text = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const devOnly of ['dev-client', 'offline-shell-dev-reload', '/esbuild', 'Build failed'])
      assert.not.ok(text.includes(devOnly), `${entry.name} has ${devOnly}`);
  }
});

test.run();
