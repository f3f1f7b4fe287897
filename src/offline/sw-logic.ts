// Pure decisions of the service worker (sw.ts imports them), kept free of worker and DOM types so
// unit tests can import them in Node: sw.ts itself is checked with the WebWorker lib and installs
// its listeners on import, so tests cannot load it.

/**
 * The cache keys (URL paths) to try, in order, for a GET of `path`; [] = the network answers.
 * Denylisted prefixes always go to the network. A navigation also tries `path/` (`/status` is
 * cached as `/status/`, where a plain file server would redirect it) and then the app shell `/`,
 * which renders the not-found page itself from location.pathname.
 */
export const cacheKeys = (path: string, navigate: boolean, deny: readonly string[]): string[] =>
  deny.some((p) => path.startsWith(p)) ? [] : navigate ? [path, path.replace(/\/?$/, '/'), '/'] : [path];

/**
 * The bytes [first, last] that a `Range` header asks of a file of `size` bytes (RFC 9110 14.1.2),
 * or undefined when it is not one satisfiable byte range: a server may then ignore it and send 200.
 */
export function parseRange(header: string, size: number): [number, number] | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header);
  if (!m) return;
  // `bytes=-N` is a suffix: the last N bytes. `bytes=-` gives first = size, so nothing.
  const first = m[1] ? +m[1] : Math.max(0, size - +m[2]);
  const last = m[1] && m[2] ? Math.min(+m[2], size - 1) : size - 1;
  if (first <= last) return [first, last];
}
