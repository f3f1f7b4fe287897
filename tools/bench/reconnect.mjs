// Part 5, reconnect: `online` -> the reload it causes, and the reloads flapping causes.
import { listen } from '../serve/server.mjs';
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
    await page.evaluate(() => addEventListener('online', () => sessionStorage.setItem('t-online', String(performance.timeOrigin + performance.now()))));
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

/**
 * Part 5: `online` -> reload and flapping reloads, `runs` of each, on loopback.
 * @param {Browser} browser
 * @param {string} out
 * @param {number} runs
 */
export async function measureReconnect(browser, out, runs) {
  const site = await listen({ root: out, port: 0 });
  try {
    const reload = [];
    const flapping = [];
    for (let i = 0; i < runs; i++) {
      reload.push(await timeOnlineReload(browser, site));
      flapping.push(await countFlappingReloads(browser, site));
    }
    return { onlineReloadMs: { runs: reload, median: median(reload) }, flappingReloads: flapping };
  } finally {
    await site.close();
  }
}
