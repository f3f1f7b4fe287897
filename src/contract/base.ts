// The path the app is served under: `/` by default, `/my-app/` for a site at a sub-path (a GitHub
// Pages project site), set by `npm run build -- --base /my-app/`. Every URL of ours is under it:
// the pages, the files, the worker and its scope, the cache keys and the reconnect probe. The
// page and the worker share this module; the build injects the value (esbuild `define`).

/** The build's `--base` (build-time constant): starts and ends with `/`. */
declare const __BASE__: string;

/** The path the app is served under, with both slashes: `/` or `/my-app/`. */
export const BASE: string = __BASE__;

/** A path of the app as the code names it (`/status/`) at its real URL path (`/my-app/status/`). */
export const withBase = (path: string): string => BASE + path.slice(1);

/**
 * The app's own path for a URL path (`/my-app/status/` -> `/status/`; `/my-app` -> `/`). A path
 * outside the base is returned unchanged: it is no route of ours and shows "Not found".
 */
export function withoutBase(pathname: string): string {
  if (pathname + '/' === BASE) return '/';
  return pathname.startsWith(BASE) ? '/' + pathname.slice(BASE.length) : pathname;
}
