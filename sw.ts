// The offline worker: precache every file of this version with integrity checks, answer from cache
// first, update only when the user says so. The rules behind each line are in ../shared/design.md
// ("Service-worker rules"). Budget: 1,200 B gzip, so the code is terse.
import { cacheKeys, parseRange } from './src/offline/sw-logic';

// Injected by the build (tools/precache.mjs). The manifest (URL path -> SRI hash of every file of
// the version) is the file /precache.json; this script pins it by its SHA-384, so the chain of
// integrity runs sw.js -> precache.json -> each file, and sw.js stays small however many files ship.
declare const __VERSION__: string;
declare const __MANIFEST_SRI__: string;
declare const __KILL_SWITCH__: boolean;
declare const __CACHE_PREFIX__: string;
/** Path prefixes whose requests always go to the network (package.json "networkOnly": server-side pages, ACME, ...). */
declare const __NETWORK_ONLY__: string[];
declare const self: ServiceWorkerGlobalScope;

const MANIFEST = '/precache.json';

const P = __CACHE_PREFIX__ + '-';
const N = P + __VERSION__;

/** Deletes every cache of ours but `keep`; resolves to one entry per deleted cache. Other apps' caches on a shared origin stay. */
const wipe = (keep?: string) => caches.keys().then((ks) => Promise.all(ks.filter((k) => k.startsWith(P) && k != keep).map((k) => caches.delete(k))));

if (__KILL_SWITCH__) {
  // Withdraw a bad release: take over at once, delete our caches, leave, and reload the pages we
  // controlled, so they load from the network with no worker.
  self.oninstall = () => self.skipWaiting();
  self.onactivate = (e) =>
    e.waitUntil(
      wipe()
        .then(() => self.registration.unregister())
        .then(() => self.clients.matchAll())
        .then((cs) => cs.forEach((c) => (c as WindowClient).navigate(c.url))),
    );
} else {
  /** Fetches past the HTTP cache, refusing altered bytes, errors and other origins. */
  const get = (url: string, integrity: string) =>
    fetch(url, { cache: 'reload', integrity }).then((r) => {
      // `ok` (no 206 either: nothing asked for a range); 'basic' = same origin even after
      // redirects, never opaque. The promise settles only after the whole body is checked.
      if (!r.ok || r.type != 'basic') throw url;
      return r;
    });

  self.oninstall = (e) => {
    // Progress for the pages ("n of m files"): a first install controls no page yet, and a
    // BroadcastChannel reaches uncontrolled pages of this origin too.
    // (Safari before 15.4 has no BroadcastChannel: it installs without progress.)
    const progress = globalThis.BroadcastChannel && new BroadcastChannel(P);
    let n = 0;
    e.waitUntil(
      get(MANIFEST, __MANIFEST_SRI__)
        .then((m) =>
          m
            .clone()
            .json()
            .then((files: Record<string, string>) =>
              Promise.all(Object.keys(files).map((u, _, all) => get(u, files[u]).then((r) => (progress && progress.postMessage([++n, all.length]), [u, r] as const)))),
            )
            // Everything arrived intact: only now write, so a failed fetch leaves nothing behind.
            .then((rs) => caches.open(N).then((c) => Promise.all([[MANIFEST, m] as const, ...rs].map(([u, r]) => c.put(u, r))))),
        )
        // A failed write (quota) must not leave half a version either. N never names the active
        // version's cache: the version id hashes sw.js too, and an identical sw.js is not reinstalled.
        .catch((err) =>
          caches.delete(N).then(() => {
            throw err;
          }),
        ),
    );
  };

  // Old versions go; claim() only when none existed: on an update the user chose skipWaiting,
  // which hands the open pages over anyway, and otherwise pages never switch versions under them.
  self.onactivate = (e) => e.waitUntil(wipe(N).then((old): unknown => old.length || self.clients.claim()));

  self.onfetch = (e) => {
    const r = e.request;
    const u = new URL(r.url);
    const range = r.headers.get('range');
    const keys = cacheKeys(u.pathname, r.mode == 'navigate', __NETWORK_ONLY__);
    // Same-origin GET only: HEAD (the reconnect probe), POST and other origins reach the network untouched.
    if (r.method == 'GET' && u.origin == location.origin && keys[0])
      e.respondWith(
        keys
          .reduce((hit: Promise<Response | undefined>, k) => hit.then((res) => res || caches.match(k, { cacheName: N })), Promise.resolve(undefined))
          .then((res) =>
            !res
              ? fetch(r)
              : range
                ? // A range we cannot serve is ignored (RFC 9110 allows it) and the whole file answers.
                  res
                    .clone()
                    .blob()
                    .then((b, x = parseRange(range, b.size)) =>
                      x
                        ? new Response(b.slice(x[0], x[1] + 1), {
                            status: 206,
                            // The file's own Content-Type: a Blob's type keeps only the MIME essence (no charset).
                            headers: { 'content-type': res.headers.get('content-type') || b.type, 'content-range': `bytes ${x[0]}-${x[1]}/${b.size}` },
                          })
                        : res,
                    )
                : // A redirected response cannot answer a navigation (redirect mode 'manual'; Safari
                  // and Chromium refuse it): a copy has the same bytes and headers, no redirect record.
                  res.redirected
                  ? new Response(res.body, res)
                  : res,
          ),
      );
  };

  self.onmessage = (e) => {
    const t = e.data?.type;
    if (t == 'SKIP_WAITING') self.skipWaiting();
    // For the status page: the manifest /precache.json in cache N, and its hash to check it by.
    if (t == 'GET_VERSION') e.ports[0]?.postMessage({ version: __VERSION__, cache: N, manifest: MANIFEST, integrity: __MANIFEST_SRI__ });
  };
}
