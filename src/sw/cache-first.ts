// The serving strategy: this version's cache first, every precached copy checked by its SHA-384;
// a precached file missing or damaged is fetched again verified and put back; the network, its
// answer untouched, for anything this version does not own, and for everything while the Cache
// API fails.
import { withBase } from '../contract/base';
import { NOT_FOUND_PAGE } from './cache-keys';
import type { Manifest } from './precache';
import { rangeResponse } from './range';
import { cached, cachedOrRepaired, cachedVerified, precacheManifest, storageFailures } from './repair';

/**
 * The app shell a navigation falls back to when its own page is missing and cannot be fetched
 * intact: any route's HTML loads the whole app, whose router then shows the route of the URL.
 */
const SHELLS = [withBase('/'), NOT_FOUND_PAGE];

/** The request is not this version's to answer: the network's answer goes through untouched. */
const NETWORK = 'network';

/**
 * Whether the manifest lists `url`. Every URL the worker looks up is a path, starting with `/`,
 * and no property of Object.prototype does: reading the manifest's key cannot find one of those.
 */
const lists = (manifest: Manifest, url: string): boolean => manifest[url] !== undefined;

/**
 * Answers from this version's cache (the first of `keys` the manifest lists). A precached file
 * missing or damaged is refetched with its SHA-384 and put back; one that cannot be had intact
 * (altered bytes, an error, no network) is never answered with unverified bytes: a navigation
 * gets the cached app shell, anything else a network error. Anything else goes to the network
 * untouched and streamed; a navigation the network cannot answer gets the cached not-found page.
 * While the Cache API fails, and should anything in the worker's own path fail unexpectedly, the
 * request gets what a page without the worker would: the network's answer (Angular's worker falls
 * back the same way in its safe mode). After a deploy the network's bytes are the new version's,
 * which the old manifest's hashes would refuse; the page's own `integrity` attributes still check
 * every script and stylesheet it loads.
 */
export async function cacheFirst(request: Request, keys: string[]): Promise<Response> {
  const failuresBefore = storageFailures;
  let copy: Response | typeof NETWORK;
  try {
    copy = await precachedCopy(request, keys);
  } catch {
    return fetch(request);
  }
  if (storageFailures !== failuresBefore) return fetch(request);
  if (copy === NETWORK) return request.mode === 'navigate' ? networkOrNotFound(request) : fetch(request);
  const range = request.headers.get('range');
  // Only a whole verified copy is sliced; an error answers as it is.
  if (range && copy.status === 200) return rangeResponse(copy, range);
  return copy;
}

/** The cached, repaired or fallback copy for `keys`, a network error, or NETWORK when the version does not own the request. */
async function precachedCopy(request: Request, keys: string[]): Promise<Response | typeof NETWORK> {
  // Without its manifest (lost, and offline) the worker cannot tell a precached URL from
  // another: it answers what its cache holds (verified when it was put) and asks the network for the rest.
  const manifest = await precacheManifest();
  if (!manifest) return (await firstOf(keys, cached)) ?? NETWORK;
  const key = keys.find((candidate) => lists(manifest, candidate));
  if (!key) return NETWORK;
  const response = await cachedOrRepaired(key, manifest[key]);
  if (response) return response;
  if (request.mode !== 'navigate') return Response.error();
  // The first app shell whose cached copy is readable and intact.
  const shells = SHELLS.filter((shell) => lists(manifest, shell));
  return (await firstOf(shells, (shell) => cachedVerified(shell, manifest[shell]))) ?? Response.error();
}

/** The network's answer to a navigation, or, when the network fails (offline), the cached not-found page. */
async function networkOrNotFound(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch {
    const integrity = (await precacheManifest())?.[NOT_FOUND_PAGE];
    const notFound = integrity ? await cachedVerified(NOT_FOUND_PAGE, integrity) : await cached(NOT_FOUND_PAGE);
    return notFound ?? Response.error();
  }
}

/** The first response `read` finds for one of `keys`, in their order, or undefined. */
async function firstOf(keys: string[], read: (key: string) => Promise<Response | undefined>): Promise<Response | undefined> {
  for (const key of keys) {
    const response = await read(key);
    if (response) return response;
  }
  return undefined;
}
