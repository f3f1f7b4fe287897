// The offline guarantees, proven in each browser engine (issue 12): registration, every screen from
// the cache with the server down, exactly one reload when the network returns (also when it flaps, and
// with someone typing), a builder's form through the reconnect, no console errors, and the page's own
// policy. Each scenario starts from a fresh profile and the host serving v1, so they run in any order.
// The other engine files: engines-versions.test.ts (update, broken update, kill switch, shared origin,
// handover, a big app on a slow link), engines-second-app.test.ts (the same guarantees on a checklist
// app), engines-repair-media.test.ts (self-repair, media). Written once against the engine-neutral
// driver (lib/driver.ts) and the readers every engine shares; each suite's browser, host, profile and
// shared steps are lib/engine-suite.ts. ENGINE (chromium | firefox | webkit, default chromium) picks
// the browser and BUILD (react | preact, default both) the build. Run by hand with `node
// test/harness/engines.mjs firefox react`.
//
// Where an engine cannot express a step, a comment says so and the test asserts what it can show.
import * as assert from 'uvu/assert';
import { logKinds, logLines } from './lib/connectivity-log';
import { assertOneReconnectReload, Documents } from './lib/documents';
import { EngineSuite, engineUnderTest } from './lib/engine-suite';
import { isProbe, requestsSince } from './lib/hosts';
import { MESSAGE_PATH, messageForm, secretsOf, stateLine } from './lib/message-form';
import { assertPolicyEnforced, assertTrustedTypesEnforced } from './lib/page-policy';
import { registrationOf } from './lib/registration';
import { DEEP_LINK, FIELD_SCREEN, heading, ROUTES, stylesheetsApply } from './lib/screens';
import { audit, readPrecache, site } from './lib/site';
import { sleep, until } from './lib/wait';
import { appStorage, caretOf, fieldText } from './lib/field';

const { engine: ENGINE, builds: BUILDS } = engineUnderTest();

/** Where each navigation lands: the screen's <h1>. The deep link is not a route: the shell renders "Not found". */
const VISITS = [...ROUTES, DEEP_LINK];

for (const [index, build] of BUILDS.entries()) {
  const s = new EngineSuite(ENGINE, build, { last: index === BUILDS.length - 1 });
  const { scenario, url, openInstalled, typeIntoField, fieldLabelOf, goOffline, typeThroughReconnectReload, assertNoProblems } = s;
  scenario('1. registration: /sw.js with scope /, the page is controlled once installed, "Ready to work offline"', async () => {
    const tab = await openInstalled();
    const reg = await registrationOf(tab);
    assert.equal(
      reg && { scope: reg.scope, script: reg.script, controller: reg.controller, active: reg.active, updateViaCache: reg.updateViaCache },
      { scope: url('/'), script: url('/sw.js'), controller: url('/sw.js'), active: 'activated', updateViaCache: 'none' },
    );
    await assertNoProblems(tab);
  });

  scenario('2. offline from the cache: every screen and a deep link render with the server down, with all the app stored', async () => {
    const tab = await openInstalled();
    await typeIntoField(tab, 'typed before going offline');
    // Online first: a repeat visit asks the server for no file the worker precached. Only the
    // browser's own update check of /sw.js may reach it (and the reconnect probe, a HEAD).
    const precached = Object.keys(readPrecache(s.v1));
    await s.host.logged();
    const from = s.host.log.length;
    // The deep link is no route of this version: online it is the host's to answer.
    for (const { path: p, h1: title } of ROUTES) {
      await tab.goto(url(p));
      await until(`${p} to render "${title}"`, async () => (await heading(tab)) === title);
    }
    const asked = requestsSince(s.host, from);
    assert.equal(
      asked.filter((u) => precached.includes(u.split(/[?#]/)[0])),
      [],
      `precached files fetched again: ${asked.join(', ')}`,
    );
    // What the app stored, its pending saves flushed by those page loads (pagehide).
    const stored = await appStorage(tab);

    // Then the server down and the browser offline: nothing can come from the network.
    await goOffline(tab);
    for (const { path: p, h1: title } of VISITS) {
      await tab.goto(url(p));
      await until(`${p} to render "${title}" offline`, async () => (await heading(tab)) === title);
      // A page loaded offline starts with navigator.onLine false and says so.
      await until(`${p} to show the offline banner`, async () => (await tab.text()).includes('You are offline'));
    }
    await tab.goto(url('/about/'));
    const version = audit(s.v1).version;
    await until('/about/ to list the audit from the cache', async () => (await tab.text()).includes(`Version ${version}`));
    await until('/about/ to show the bundle composition from the cache', () =>
      tab.evaluate(
        () => document.querySelectorAll('table.composition tbody tr').length > 5 && !!document.querySelector('svg.chart[role="img"]'),
      ),
    );
    await tab.goto(url('/status/'));
    // The status screen hashes every precached file in the page: the cache holds the version intact.
    await until('/status/ to verify every file', async () => /(\d+) of \1 files verified/.test(await tab.text()));
    await tab.goto(url(FIELD_SCREEN.path));
    await until('the field screen to show its field offline', async () => (await fieldText(tab)) !== null);
    assert.equal(await appStorage(tab), stored, 'all the app stored is there offline');
    await assertNoProblems(tab);
  });

  scenario(
    '3a. back online, the network flapping first: exactly one reload, after one probe that reached the server, with the text typed while offline',
    async () => {
      const tab = await openInstalled();
      const documents = await Documents.of(tab);
      await goOffline(tab);
      await tab.type(await fieldLabelOf(tab), 'typed while offline');
      await s.host.logged();
      const probesFrom = s.host.log.length;
      await s.host.resume();
      // Seven toggles 100 ms apart (a pace, not a wait), from offline to online. Chromium and Firefox deliver each
      // one to the page. WebKit's pages follow GLib's network monitor, which reports a link change
      // seconds later and may fold quick toggles into fewer events: the page sees what it sees, and
      // the assertion is the same: one reload, once the network has been steady for a second.
      for (let i = 0; i < 7; i++) {
        await s.profile.setOffline(i % 2 === 1);
        await sleep(100);
      }
      // The reload needs a second of steady network and then a probe: none can have come yet.
      await documents.sample();
      assert.is(documents.reloads, 0, 'no reload while the network flaps');
      await documents.reloaded('the reload', s.browser.networkLagMs + 10_000);
      await documents.until('the reloaded page to show the text', async () => (await fieldText(tab)) === 'typed while offline');
      await assertOneReconnectReload(tab, documents);
      await s.host.logged();
      const probes = s.host.log.slice(probesFrom).filter(isProbe);
      assert.is(probes.length, 1, 'one probe of the server, over the network');
      assert.not.ok((await tab.text()).includes('You are offline'), 'no offline banner after the reload');
      console.log(`  flapping in ${ENGINE}: the page logged ${(await logKinds(tab)).join(', ')}`);
      await assertNoProblems(tab);
    },
  );

  scenario('3c. flapping that the page sees, with the server down: no reload while probes fail, then exactly one', async () => {
    const tab = await openInstalled();
    const documents = await Documents.of(tab);
    await goOffline(tab);
    // Each toggle waits until the page has seen it, so the page goes through every transition; in
    // WebKit this is the only way it sees several (3a's quick toggles are folded by GLib).
    for (const offline of [false, true, false]) {
      await s.profile.setOffline(offline);
      const seen = documents.sampling(async () => (await tab.evaluate(() => navigator.onLine)) === !offline);
      await until(`the page to see the network ${offline ? 'gone' : 'back'}`, seen, s.browser.networkLagMs);
    }
    // Online with the server still down: the positive signal is a failed probe, the attempt that
    // would otherwise have reloaded; it backs off and retries, and no reload comes.
    await documents.until('a failed probe', async () => (await logKinds(tab)).includes('probe-failed'));
    assert.is(documents.reloads, 0, 'no reload while the server does not answer');
    // Read before the reload: the log a page keeps across a reload is its last 8 entries, and the
    // retries' failed probes (more of them where the network's return reaches the page late) can
    // push the first return out of it.
    const beforeReload = await logKinds(tab);
    assert.ok(
      beforeReload.filter((k) => k === 'online').length >= 2,
      `the page saw the network come back twice: ${beforeReload.join(', ')}`,
    );
    await s.host.resume();
    // The next retry comes after the backoff (1 s, then 2 s, 4 s, ...).
    await documents.reloaded('the reload once the server answers', 15_000);
    await documents.until('the reloaded page to render', async () => (await fieldText(tab)) !== null);
    await assertOneReconnectReload(tab, documents);
    // Chromium reports each probe that the stopped server refused (HEAD /sw.js) on the console.
    await assertNoProblems(tab, ['console.error: Failed to load resource: net::ERR_CONNECTION_REFUSED']);
  });

  // A builder's form through the reconnect, on both builds: React and Preact listen to different
  // events, and Firefox refills prerendered fields itself before either hears of them.
  scenario(
    "3e. a builder's form through the reconnect: every key and every control kept in the component, the caret where it was, no secret kept (password, a PIN shown as text, a split code)",
    async () => {
      await s.host.setRoot(site(build, 'form'));
      const tab = await openInstalled();
      await tab.goto(url(MESSAGE_PATH));
      await until('the form', () => messageForm(tab));
      await tab.type('To', 'ada');
      // A select takes the option whose name starts with the key pressed; a space ticks a checkbox.
      await tab.evaluate(() => document.querySelector<HTMLSelectElement>('select[name="priority"]')?.focus());
      await tab.press('h');
      await tab.evaluate(() => document.querySelector<HTMLInputElement>('.message input[type="checkbox"]')?.focus());
      await tab.press(' ');
      await tab.type('Password', 'secret');
      // Secrets as UI kits write them: a PIN typed while "Show PIN" made it a text field, a split one-time code.
      await tab.click('Show PIN');
      await until('the PIN shown as text', () =>
        tab.evaluate(() => document.querySelector('#message-pin')?.getAttribute('type') === 'text'),
      );
      await tab.type('PIN', '4711');
      for (const digit of [1, 2, 3]) await tab.type(`Code digit ${digit}`, String(digit));
      assert.equal(await secretsOf(tab), { pin: '4711', code: '123' });
      await tab.type('Your message', 'before ');
      const documents = await Documents.of(tab);
      const { text, typed } = await typeThroughReconnectReload(tab, documents, 'before ', async () => (await messageForm(tab))?.text);
      await documents.until('the reloaded page to log the fields it restored', async () =>
        (await logKinds(tab)).includes('fields-restored'),
      );
      const after = await messageForm(tab);
      const kept = after?.text.startsWith('before ') ? after.text.length - 'before '.length : 0;
      console.log(
        `  typing through a reconnect into a builder's form in ${ENGINE} (${build}): ${typed.length} keys typed, ${kept} kept, ${documents.reloads} reload(s)`,
      );
      const shown = { to: 'ada', text, priority: 'high', urgent: true, password: '' };
      assert.equal(after, { ...shown, state: stateLine(shown) }, 'every control as it was, in the component state too; the password empty');
      assert.equal(await caretOf(tab), { id: 'message-text', start: text.length, end: text.length }, 'the focus and caret where they were');
      // Four fields were saved: the PIN and the code's boxes never were (the PIN's key would count as missing: it is a password field again).
      assert.is((await logLines(tab)).at(-1), 'fields-restored: 4 of 4 came back');
      assert.equal(await secretsOf(tab), { pin: '', code: '' }, 'the secrets did not come back');
      await assertOneReconnectReload(tab, documents);
      await assertNoProblems(tab);
    },
  );

  scenario('7a. no console errors from the app on any screen, once each has finished loading; a control error is seen', async () => {
    const tab = await openInstalled();
    // Online, so the app's routes: a path the version does not own is the host's page.
    for (const { path: p, h1: title } of ROUTES) {
      await tab.goto(url(p));
      await until(`${p} to render "${title}"`, async () => (await heading(tab)) === title);
      // Every placeholder of the app ends in "…" (Loading…, Checking…, storage "…"): none left
      // means the screen's own fetches are done.
      await until(`${p} to finish loading`, async () => !(await tab.text()).includes('…'));
      // Loaded before WebKit's problem hooks listen (after-load): a stylesheet the page's own policy
      // refused has no rules to read (stylesheetsApply). The script is proven by the rendered screen.
      assert.ok(await stylesheetsApply(tab), `${p}: the stylesheet applies`);
    }
    await assertNoProblems(tab);
    // evaluate() runs in the page's own JS world, not an isolated one: it sees the expando that
    // React (`__reactContainer$…`) or Preact (`__k`) put on #root. WebKit's page-side hooks
    // (lib/webkit.ts) rely on it to see the app's console.error.
    const world = await tab.evaluate(() =>
      Object.keys(document.getElementById('root') ?? {}).some((k) => k.startsWith('__react') || k === '__k'),
    );
    assert.ok(world, "evaluate() shares the page's JS world");
    // The control: an error and an exception the test causes are collected, so the empty list above
    // is a finding, not a blind spot. WebKit shows less than the others: WebDriver gives it no console
    // (lib/webkit.ts), so its tabs collect from the first command after each load, and an error
    // during start-up would show only as a screen that never renders (every test waits for one).
    await tab.evaluate(() => {
      console.error('engine test: control error');
      setTimeout(() => {
        throw new Error('engine test: control exception');
      });
    });
    await until('the control error and exception to be collected', async () => {
      const seen = await tab.problems();
      return seen.some((p) => p.includes('control error')) && seen.some((p) => p.includes('control exception'));
    });
    await assertTrustedTypesEnforced(tab);
    if (ENGINE === 'firefox') {
      // The Firefox rule in s.problemsOf() is narrow: a real failure of the worker's answer (a file it
      // does not cache, with the server down) is still an error.
      await s.host.pause();
      await tab.evaluate(() =>
        fetch('/not-precached.txt').then(
          () => undefined,
          () => undefined,
        ),
      );
      await until('Firefox to report the failed interception', async () =>
        (await s.problemsOf(tab)).some((p) => p.includes('FetchEvent.respondWith() that rejected')),
      );
      await s.host.resume();
    }
  });

  scenario("7b. the page's own policy, where the host sends none: an inline, a foreign and an unnamed script are refused", async () => {
    // The scenario's fresh profile has never met the app: no worker answers the probe page.
    await assertPolicyEnforced((url) => s.profile.open(url), s.host, s.v1);
  });

  s.test.run();
}
