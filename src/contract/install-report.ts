// What the worker tells every page of the app about its first install, on PROGRESS_CHANNEL
// (src/contract/app-name.ts): the files stored so far, and why an install failed when the person can act
// on the reason. Shared by the worker, which sends it, and the page, which reads it.

/** Files stored of the total, a few times a second while the worker precaches. */
export type InstallProgress = [done: number, total: number];

/** The browser refused to store the app's files for lack of room (the device, or the site's share of it). */
export type InstallFailure = 'no-room';

/** One message on the channel. */
export type InstallReport = InstallProgress | { failed: InstallFailure };

/**
 * Whether `error` is a browser refusing a write for lack of room: QuotaExceededError (Cache API,
 * localStorage in Chromium and WebKit) or NS_ERROR_DOM_QUOTA_REACHED (older Firefox).
 */
export const isQuotaError = (error: unknown): boolean => /quota/i.test((error as Error | null)?.name ?? '');
