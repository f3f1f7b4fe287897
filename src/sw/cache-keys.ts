// Which cache entries may answer a request. Pure, so unit tests run it in Node.
import { withBase } from '../base';

/**
 * The cache keys (URL paths) to try, in order, for a GET of `path`; [] means the network answers.
 * Paths under a network-only prefix always go to the network. A navigation also tries `path/`
 * (`/status` is cached as `/status/`, where a plain file server would redirect it) and then
 * `/404.html`, the prerendered not-found screen: any other route's HTML would not match the URL
 * the page hydrates at.
 */
export function cacheKeys(path: string, isNavigation: boolean, networkOnly: readonly string[]): string[] {
  if (networkOnly.some((prefix) => path.startsWith(prefix))) return [];
  if (!isNavigation) return [path];
  return [path, path.replace(/\/?$/, '/'), withBase('/404.html')];
}
