// Part 5, reconnect: `online` -> the reload it causes, the reloads flapping causes, and typing
// through a reconnect: 60 keys 90 ms apart, the network back after the 10th; the keys lost (not
// in the note after the reload) and last key -> reload.
import { listen } from '../../tools/serve/server.mjs';
import { median } from './median.mjs';
import { installedPage } from './page-probes.mjs';
import { poll, sleep } from './waits.mjs';

const RELOAD_LIMIT_MS = 10_000;
/** How long flapping gets to settle before its reloads are counted (debounce 1 s, plus margin). */
const FLAPPING_SETTLE_MS = 6_000;

/** @typedef {import('playwright-core').Browser} Browser */

/**
 * ms from the `online` event in the old document to the reloaded document's start, measured in the browser.
 * @param {Browser} browser
 * @param {{ url: string }} site
 */
async function timeOnlineReload(browser, site) {
  const { context, page } = await installedPage(browser, site);
  try {
    await page.evaluate(() =>
      addEventListener('online', () => sessionStorage.setItem('t-online', String(performance.timeOrigin + performance.now()))),
    );
    const loads = { count: 0 };
    page.on('load', () => loads.count++);
    await context.setOffline(true);
    await sleep(200);
    await context.setOffline(false);
    await poll(() => (loads.count >= 1 ? true : undefined), { limitMs: RELOAD_LIMIT_MS, what: 'the reload after `online`' });
    await page.getByRole('heading', { level: 1 }).waitFor({ timeout: RELOAD_LIMIT_MS });
    return await page.evaluate(() => performance.timeOrigin - Number(sessionStorage.getItem('t-online')));
  } finally {
    await context.close();
  }
}

/**
 * The reloads 8 offline/online toggles 100 ms apart cause, counted once things have settled.
 * @param {Browser} browser
 * @param {{ url: string }} site
 */
async function countFlappingReloads(browser, site) {
  // A fresh profile: the reload guard of an earlier reload would hold this one back.
  const { context, page } = await installedPage(browser, site);
  try {
    const loads = { count: 0 };
    page.on('load', () => loads.count++);
    for (let toggle = 0; toggle < 8; toggle++) {
      await context.setOffline(toggle % 2 === 0);
      await sleep(100);
    }
    await context.setOffline(false);
    // Counting what happens in a window: a sleep is the measurement here, not a wait for a state.
    await sleep(FLAPPING_SETTLE_MS);
    return loads.count;
  } finally {
    await context.close();
  }
}

/** Keys typed through a reconnect, 90 ms apart; the network comes back after TYPING_ONLINE_AFTER of them. */
export const TYPING_KEYS = 60;
const TYPING_ONLINE_AFTER = 10;

/**
 * Types TYPING_KEYS keys into the first note through a reconnect, as a person who does not stop
 * when the network returns. Resolves to the keys lost (typed, but not in the note once the page
 * has reloaded) and the ms from the last key to the reload, in the old document's clock (for a
 * reload that came while keys were still coming: from the last key the old document saw).
 * @param {Browser} browser
 * @param {{ url: string }} site
 */
async function typeThroughReconnect(browser, site) {
  const { context, page } = await installedPage(browser, site);
  try {
    const note = page.getByRole('textbox', { name: 'Note 1', exact: true });
    await note.click();
    await page.evaluate(() => {
      addEventListener('keydown', () => sessionStorage.setItem('t-last-key', String(performance.now())), true);
      addEventListener('beforeunload', () => sessionStorage.setItem('t-unload', String(performance.now())));
    });
    const loads = { count: 0 };
    page.on('load', () => loads.count++);
    await context.setOffline(true);
    for (let key = 0; key < TYPING_KEYS; key++) {
      if (key === TYPING_ONLINE_AFTER) await context.setOffline(false);
      await page.keyboard.type('k');
      await sleep(90);
    }
    await poll(() => (loads.count >= 1 ? true : undefined), { limitMs: RELOAD_LIMIT_MS, what: 'the reload after the typing' });
    await note.waitFor({ timeout: RELOAD_LIMIT_MS });
    const kept = (await note.inputValue()).length;
    const lastKeyToReloadMs = await page.evaluate(
      () => Number(sessionStorage.getItem('t-unload')) - Number(sessionStorage.getItem('t-last-key')),
    );
    return { keysLost: TYPING_KEYS - kept, lastKeyToReloadMs };
  } finally {
    await context.close();
  }
}

/**
 * Part 5: `online` -> reload, flapping reloads and typing through a reconnect, `runs` of each, on
 * loopback; the typing (into the demo's first note) only when `typing`: not after remove-demo.
 * @param {Browser} browser
 * @param {string} out
 * @param {number} runs
 * @param {{ typing?: boolean }} [options]
 */
export async function measureReconnect(browser, out, runs, { typing: withTyping = true } = {}) {
  const site = await listen({ root: out, port: 0 });
  try {
    const reload = [];
    const flapping = [];
    const typing = [];
    for (let i = 0; i < runs; i++) {
      reload.push(await timeOnlineReload(browser, site));
      flapping.push(await countFlappingReloads(browser, site));
      if (withTyping) typing.push(await typeThroughReconnect(browser, site));
    }
    const lastKeyToReload = typing.map((run) => run.lastKeyToReloadMs);
    return {
      onlineReloadMs: { runs: reload, median: median(reload) },
      flappingReloads: flapping,
      typing: withTyping
        ? { keysLost: typing.map((run) => run.keysLost), lastKeyToReloadMs: { runs: lastKeyToReload, median: median(lastKeyToReload) } }
        : undefined,
    };
  } finally {
    await site.close();
  }
}
