// The serving strategy: this version's cache first, every precached copy checked by its SHA-384;
// a precached file missing or damaged is fetched again verified and put back; the network for
// anything not precached, and for everything when the cache itself fails.
import { withBase } from '../base';
import { cached, cachedOrRepaired, cachedVerified, precacheManifest } from './repair';
import type { Manifest } from './precache';
import { rangeResponse } from './range';

/**
 * The app shell a navigation falls back to when its own page is missing and cannot be fetched
 * intact: any route's HTML loads the whole app, whose router then shows the route of the URL.
 */
const SHELLS = [withBase('/'), withBase('/404.html')];

/**
 * Answers from this version's cache (the first of `keys` the manifest lists). A precached file
 * missing or damaged is refetched with its SHA-384 and put back; one that cannot be had intact
 * (altered bytes, an error, no network) is never answered with unverified bytes: a navigation
 * gets the cached app shell, anything else a network error. A request for something not
 * precached goes to the network. Should anything in the worker's own path fail unexpectedly, the
 * network answers: a worker fault must never lock an online person out (Angular's worker falls
 * back the same way in its safe mode).
 */
export async function cacheFirst(request: Request, keys: string[]): Promise<Response> {
  try {
    const response = await precachedResponse(request, keys);
    if (!response) return Response.error();
    const range = request.headers.get('range');
    if (range) return await rangeResponse(response, range);
    return response;
  } catch {
    return fetch(request);
  }
}

/** The cached, repaired or fallback response for `keys`, or undefined for a network error. */
async function precachedResponse(request: Request, keys: string[]): Promise<Response | undefined> {
  // Without its manifest (lost, and offline) the worker cannot tell a precached URL from
  // another: it answers what its cache holds (verified when it was put) and asks the network for the rest.
  const manifest = await precacheManifest();
  const key = manifest ? keys.find((candidate) => Object.hasOwn(manifest, candidate)) : undefined;
  if (!manifest || !key) return (await firstCached(keys)) ?? fetch(request);
  const response = await cachedOrRepaired(key, manifest[key]);
  if (response || request.mode !== 'navigate') return response;
  return firstVerifiedShell(manifest);
}

/** The first of `keys` in this version's cache, or undefined. */
async function firstCached(keys: string[]): Promise<Response | undefined> {
  for (const key of keys) {
    const response = await cached(key);
    if (response) return response;
  }
  return undefined;
}

/** The first app shell whose cached copy is readable and intact, or undefined. */
async function firstVerifiedShell(manifest: Manifest): Promise<Response | undefined> {
  for (const shell of SHELLS) {
    if (!Object.hasOwn(manifest, shell)) continue;
    const response = await cachedVerified(shell, manifest[shell]);
    if (response) return response;
  }
  return undefined;
}
