// The app's one name, from package.json (`name`, and `displayName` for people), injected by the
// build. Every cache, channel and storage key is derived from it, so renaming the app in
// package.json renames all of them together, in the page and in the worker alike.

/** package.json `name` (build-time constant). */
declare const __APP_NAME__: string;
/** package.json `displayName`, or `name` when it has none (build-time constant). */
declare const __APP_TITLE__: string;

/** The app's id: package.json `name`. */
export const APP_NAME: string = __APP_NAME__;

/** The app's name as people read it: the brand, page titles, the web app manifest. */
export const APP_TITLE: string = __APP_TITLE__;

/**
 * Start of every CacheStorage name of ours. An origin such as *.github.io is shared with other
 * apps: the worker deletes only caches with this prefix, and the status page reads only those.
 */
export const CACHE_PREFIX = APP_NAME + '-';

/** The BroadcastChannel the worker reports install progress on (it reaches uncontrolled pages too). */
export const PROGRESS_CHANNEL = APP_NAME + ':install-progress';

/** The BroadcastChannel the worker reports its cache's repairs on (src/repair-report.ts says what it sends). */
export const REPAIR_CHANNEL = APP_NAME + ':cache-repair';

/** A localStorage or sessionStorage key of this app: `<name>:<what>`. */
export const storageKey = (what: string): string => `${APP_NAME}:${what}`;
