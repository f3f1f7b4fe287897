// The app's one identity: its name from package.json (`name`, and `displayName` for people) and
// the base path it is served under (src/contract/base.ts), both injected by the build. One app is its name
// AND its base: two apps made from this template can share an origin (GitHub Pages project sites
// user.github.io/a/ and /b/), and each must see only its own caches, storage keys, channels and
// locks. Every one of them is derived here, in the page and in the worker alike.
import { BASE } from './base';

/** package.json `name` (build-time constant). */
declare const __APP_NAME__: string;
/** package.json `displayName`, or `name` when it has none (build-time constant). */
declare const __APP_TITLE__: string;

/** The app's name: package.json `name`. */
export const APP_NAME: string = __APP_NAME__;

/** The app's name as people read it: the brand, page titles, the web app manifest. */
export const APP_TITLE: string = __APP_TITLE__;

/**
 * The id of one app: `<name>@<base>` (`offline-shell@/`, `notes@/my-app/`). A name holds only
 * [a-z0-9._-] and a base only `/` and [A-Za-z0-9._~-] (tools/config.mjs refuses anything else),
 * so neither holds `@`, and the id says which is which.
 */
export const appId = (name: string, base: string): string => `${name}@${base}`;

/** This app's id. */
export const APP_ID = appId(APP_NAME, BASE);

/**
 * Start of every CacheStorage name of the app `id`: `[offline-shell@/] `. The closing bracket
 * ends the id, so `notes@/a/` is never the start of `notes@/a/b/`'s names, nor `notes` of
 * `notes-pro`'s. The opening bracket is a character no package name starts with: earlier releases
 * deleted every cache starting with `<their name>-`, and a neighbour still running one of them
 * must not take ours for its own.
 */
export const cachePrefixOf = (id: string): string => `[${id}] `;

/** Start of every CacheStorage name of ours: the worker deletes only caches of this app at this base. */
export const CACHE_PREFIX = cachePrefixOf(APP_ID);

/** A localStorage or sessionStorage key, BroadcastChannel or Web Lock name of the app `id` (default: this one): `<id>:<what>`. */
export const storageKey = (what: string, id: string = APP_ID): string => `${id}:${what}`;

/** The BroadcastChannel the worker reports install progress on (it reaches uncontrolled pages too). */
export const PROGRESS_CHANNEL = storageKey('install-progress');

/** The BroadcastChannel the worker reports its cache's repairs on (src/contract/repair-report.ts says what it sends). */
export const REPAIR_CHANNEL = storageKey('cache-repair');
