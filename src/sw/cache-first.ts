// The serving strategy: this version's cache first, the network for anything not precached.
import { CACHE_NAME } from './config';
import { rangeResponse } from './range';

/** Answers from this version's cache (the first of `keys` found), else from the network. */
export async function cacheFirst(request: Request, keys: string[]): Promise<Response> {
  const cached = await firstCached(keys);
  if (!cached) return fetch(request);
  const range = request.headers.get('range');
  if (range) return rangeResponse(cached, range);
  return withoutRedirect(cached);
}

/** The first of `keys` in this version's cache, or undefined. */
async function firstCached(keys: string[]): Promise<Response | undefined> {
  for (const key of keys) {
    // match() with cacheName, not open(): open() would create the cache if it was evicted.
    const response = await caches.match(key, { cacheName: CACHE_NAME });
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
