// The serving strategy: this version's cache first; a precached file missing from it is fetched
// again verified and put back; the network for anything not precached.
import { cached, cachedOrRepaired, precacheManifest } from './repair';
import { withBase } from '../base';
import { rangeResponse } from './range';

/**
 * The app shell a navigation falls back to when its own page is missing and cannot be fetched
 * intact: any route's HTML loads the whole app, whose router then shows the route of the URL.
 */
const SHELLS = [withBase('/'), withBase('/404.html')];

/**
 * Answers from this version's cache (the first of `keys` the manifest lists). A precached file
 * missing from the cache is refetched with its SHA-384 and put back; one that cannot be had
 * intact (altered bytes, an error, no network) is never answered with unverified bytes: a
 * navigation gets the cached app shell, anything else a network error. A request for something
 * not precached goes to the network.
 */
export async function cacheFirst(request: Request, keys: string[]): Promise<Response> {
  const response = await precachedResponse(request, keys);
  if (!response) return Response.error();
  const range = request.headers.get('range');
  if (range) return rangeResponse(response, range);
  return withoutRedirect(response);
}

/** The cached, repaired or fallback response for `keys`, or undefined for a network error. */
async function precachedResponse(request: Request, keys: string[]): Promise<Response | undefined> {
  // Without its manifest (evicted, and offline) the worker cannot tell a precached URL from
  // another: it answers what its cache holds (verified when it was put) and asks the network for the rest.
  const manifest = await precacheManifest();
  const key = manifest ? keys.find((candidate) => candidate in manifest) : undefined;
  if (!manifest || !key) return (await firstCached(keys)) ?? fetch(request);
  const response = await cachedOrRepaired(key, manifest[key]);
  if (response || request.mode !== 'navigate') return response;
  return firstCached(SHELLS);
}

/** The first of `keys` in this version's cache, or undefined. */
async function firstCached(keys: string[]): Promise<Response | undefined> {
  for (const key of keys) {
    const response = await cached(key);
    if (response) return response;
  }
  return undefined;
}

/**
 * A response that came through a redirect cannot answer a navigation (its redirect mode is
 * 'manual'; Safari and Chromium refuse it): a copy has the same bytes and headers and no record
 * of the redirect.
 */
export function withoutRedirect(response: Response): Response {
  if (!response.redirected) return response;
  return new Response(response.body, response);
}
