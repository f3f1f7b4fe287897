// Counting the documents a tab shows, the same way in every engine, and the proof that a reconnect
// reloaded a tab exactly once (test/e2e/engines.test.ts).
import * as assert from 'uvu/assert';
import { logKinds } from './connectivity-log';
import type { Tab } from './driver';
import { until } from './wait';

/**
 * Counts the documents a tab shows, the same way in every engine. Each engine has its own
 * navigation events (CDP, BiDi) or none (WebDriver classic), and an init script cannot count under
 * the app's CSP, so the test marks each document it meets: a random id on `window`, which a new
 * document does not have. sample() runs in every poll of a wait around a reload (≤ 25 ms plus one
 * round trip apart); a document that came and went between two samples would have had to start
 * the app and reload within that gap, which no reload path allows: reconnect waits ≥ 1 s of stable
 * network and a probe, an update needs a new worker to take control, and both have a 10 s guard.
 */
export class Documents {
  private readonly ids: string[] = [];
  constructor(private readonly tab: Tab) {}

  /** A count for `tab`, starting from the document it shows now. */
  static async of(tab: Tab): Promise<Documents> {
    const documents = new Documents(tab);
    await documents.sample();
    return documents;
  }

  /** Marks and records the current document; undefined while a navigation is in progress. */
  async sample(): Promise<string | undefined> {
    const id = await this.tab
      .evaluate(() => {
        const page = window as Window & { __engineTestDocument?: string };
        page.__engineTestDocument ??= `${performance.timeOrigin}-${Math.random().toString(36).slice(2)}`;
        return page.__engineTestDocument;
      })
      .catch(() => undefined);
    if (id && this.ids[this.ids.length - 1] !== id) this.ids.push(id);
    return id;
  }

  /** `check`, run after sampling the current document: a wait that polls it counts every document it meets. */
  sampling<T>(check: () => Promise<T>): () => Promise<T> {
    return async () => {
      await this.sample();
      return check();
    };
  }

  /** Waits (lib/wait.ts until) for `check`, sampling the current document in each poll. */
  until<T>(what: string, check: () => Promise<T>, ms?: number): Promise<T> {
    return until(what, this.sampling(check), ms);
  }

  /** Waits until the tab shows a document after the first one (a reload), sampling in each poll. */
  reloaded(what: string, ms?: number): Promise<boolean> {
    return this.until(what, async () => this.reloads >= 1, ms);
  }

  /** Documents seen after the first one. */
  get reloads(): number {
    return Math.max(0, this.ids.length - 1);
  }
}

/**
 * After a reconnect reload: the log (kept across the reload) shows the probe right before the
 * one reload, and nothing after it but the new page's restore of the fields typed into (logged
 * when there were any: src/reload/form-state.ts). That is the positive signal that makes "no
 * second reload" provable without waiting: the note rendered, so the new document's start-up (connectivity
 * first, then reconnect, then notes: src/main.tsx) is done; had it started offline it would have
 * logged `offline` after `reload`; it did not, so its reconnect policy is disarmed until an
 * `offline` event, which the test never causes. The old document can reload only once.
 */
export async function assertOneReconnectReload(tab: Tab, documents: Documents): Promise<void> {
  const kinds = (await logKinds(tab)).filter((kind) => kind !== 'fields-restored');
  assert.equal(kinds.slice(-2), ['probe-ok', 'reload'], `the log ends with the probe, then the reload: ${kinds.join(', ')}`);
  assert.is(kinds.filter((k) => k === 'reload').length, 1, 'one reload logged');
  assert.ok(kinds.includes('offline'), 'the page saw the network go');
  assert.is(await tab.evaluate(() => navigator.onLine), true);
  await documents.sample();
  assert.is(documents.reloads, 1, 'exactly one new document');
}
