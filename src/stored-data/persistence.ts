// Persistent storage: whether the browser may evict this app's data under storage pressure.
// Asked for once per page load after the app first saves something worth keeping, and only where
// asking cannot show a prompt: never on load, never a surprise dialog. The status page's button
// asks when the user chooses to. Whatever the browser says, a copy off the device (a backup) is
// the user's guarantee.
import { createStore, type Store } from '../core/store';

/**
 * What this page load asked: 'not-asked' (yet, or because the browser could prompt), and the
 * browser's answer to the last ask, 'granted' or 'declined'.
 */
export type PersistAsk = 'not-asked' | 'granted' | 'declined';

const state = createStore<PersistAsk>('not-asked');
/** What this page load asked of `navigator.storage.persist()` and what it answered. */
export const persistence: Store<PersistAsk> = state;

let askedQuietly = false;

/**
 * Asks for persistent storage once, where the browser grants or declines it without asking the
 * user: the 'persistent-storage' permission is already 'granted', or the browser has no such
 * permission to query (Safari decides persist() by its own rules and never prompts). 'prompt'
 * means Firefox would show a dialog (Chromium says 'prompt' too, though it decides silently):
 * then only the user's click on "Keep data on this device" asks.
 */
export async function persistWithoutPrompt(): Promise<void> {
  if (askedQuietly) return;
  askedQuietly = true;
  const storage = navigator.storage;
  if (!storage?.persist || (await storage.persisted())) return;
  const permission = await navigator.permissions?.query({ name: 'persistent-storage' }).then(
    (status) => status.state,
    () => 'unknown',
  );
  if (permission === 'prompt' || permission === 'denied') return;
  await askToPersist();
}

/** Asks the browser to keep this app's data (it may prompt the user); the answer goes to the store. */
export async function askToPersist(): Promise<void> {
  state.set((await navigator.storage.persist()) ? 'granted' : 'declined');
}
