// Which cache entries may answer a request. Pure, so unit tests run it in Node.
import { withBase } from '../contract/base';

/** The prerendered not-found screen: what a claimed path the version does not know shows. */
export const NOT_FOUND_PAGE = withBase('/404.html');

/**
 * The cache keys (URL paths) to try, in order, for a GET of `path`; [] means the network answers.
 * Paths under a network-only prefix always go to the network. A navigation also tries `path/`
 * (`/status` is cached as `/status/`, where a plain file server would redirect it). Only a path
 * under a claimed prefix (package.json `claimedPaths`) adds the not-found page:
 * an origin holds other sites too, so any other navigation this version does not own is the
 * server's to answer (the not-found page answers it only when the network fails).
 */
/** `networkOnly` and `claimed` are URL paths (the build put package.json's prefixes under the base: src/sw/config.ts). */
export function cacheKeys(path: string, isNavigation: boolean, networkOnly: readonly string[], claimed: readonly string[] = []): string[] {
  if (networkOnly.some((prefix) => path.startsWith(prefix))) return [];
  if (!isNavigation) return [path];
  const keys = [path, path.replace(/\/?$/, '/')];
  return claimed.some((prefix) => path.startsWith(prefix)) ? [...keys, NOT_FOUND_PAGE] : keys;
}
