// The one table of the HTTP headers a host must send with dist/, and every place that says it:
// the preview server (tools/serve/server.mjs) asks headersFor(); the build writes `_headers` for Netlify
// and Cloudflare Pages with headersFile(); deploy/nginx.mjs writes deploy/nginx.conf and
// deploy/nginx-https.conf from it (a unit test fails when either drifts).

/** The file the build writes for Netlify and Cloudflare Pages, which read it and do not serve it. */
export const HEADERS_FILE = '_headers';

/**
 * The URL paths of content-hashed files, which a new version never reuses: in an `assets/`
 * folder (at the root, or under a `--base` such as /my-app/assets/) and named `<name>-<hash>.<ext>`
 * (esbuild's `[name]-[hash]`). Written so that JavaScript and nginx (PCRE) read it alike. Only
 * the name proves the hash: dev builds write `/assets/app.js`, which changes on every save and
 * must be revalidated like everything else.
 */
export const HASHED_ASSET_PATTERN = '/assets/[^/]+-[A-Za-z0-9]{8,}\\.[A-Za-z0-9]+$';
const HASHED_ASSET = new RegExp(HASHED_ASSET_PATTERN);

/** Cache-Control per kind of path. */
export const CACHE_CONTROL = {
  // Content-hashed: a year, and `immutable` so a reload does not revalidate them (RFC 8246).
  immutable: 'public, max-age=31536000, immutable',
  // Everything else (sw.js, the HTML, the manifests) may be stored but is revalidated on every
  // use, so a deploy is seen at once: browsers check sw.js against the HTTP cache unless it says
  // so (the page registers with updateViaCache 'none' too, for hosts that send nothing).
  revalidate: 'no-cache',
};

/**
 * The app's Trusted Types policies: one, which turns the worker's URL, and nothing else, into the
 * TrustedScriptURL that register() needs (src/worker-client/worker-script-url.ts, whose name
 * a unit test holds equal). React and Preact write to no script sink in this app (React DOM's only
 * innerHTML is for dangerouslySetInnerHTML, which the app never uses).
 */
export const TRUSTED_TYPES_POLICIES = ['service-worker-url'];

/**
 * The Content-Security-Policy, directive by directive. It starts from nothing (`default-src 'none'`)
 * and allows exactly what the app loads, all from its own origin and nothing inline: its hashed
 * script and stylesheet, the icons and images, the sounds and videos (`<audio>`, `<video>`) and
 * fonts a builder ships in static/ or imports, fetch() (audit.json, the reconnect probe, the
 * worker's precache), the web app manifest and the service worker. Beyond fetching (CSP Level 3):
 * `frame-ancestors 'none'` forbids framing (a hidden frame could trick a click on "Delete"),
 * `base-uri 'none'` forbids a `<base>` that would move every relative URL, `form-action 'none'`
 * forbids form submissions (the app posts none). Trusted Types (`require-trusted-types-for 'script'`):
 * a string reaching a script sink (innerHTML, a script's src or text, eval, serviceWorker.register)
 * is refused unless a named policy made it, so a DOM XSS in the app or in a dependency cannot run;
 * `trusted-types` names the only policy that may exist, TRUSTED_TYPES_POLICIES (no default policy,
 * no 'allow-duplicates': a second policy of that name, made by a script that got in, throws).
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': "'none'",
  'script-src': "'self'",
  'style-src': "'self'",
  'img-src': "'self'",
  'media-src': "'self'",
  'font-src': "'self'",
  'connect-src': "'self'",
  'manifest-src': "'self'",
  'worker-src': "'self'",
  'base-uri': "'none'",
  'form-action': "'none'",
  'frame-ancestors': "'none'",
  'require-trusted-types-for': "'script'",
  'trusted-types': TRUSTED_TYPES_POLICIES.join(' '),
};

/**
 * Powerful features the app never uses, denied to it and to anything it could ever embed
 * (Permissions Policy, `feature=()`). Only features Chromium knows: it warns on the console about
 * a name it does not recognise (Chromium 156 does not know `bluetooth`).
 */
export const DENIED_FEATURES = ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'hid', 'midi', 'display-capture'];

/**
 * A policy as a header or a meta element spells it: `directive value; directive value`.
 * @param {Record<string, string>} directives
 */
const serializePolicy = (directives) =>
  Object.entries(directives)
    .map(([directive, value]) => `${directive} ${value}`)
    .join('; ');

/**
 * Directives a policy delivered in `<meta http-equiv="Content-Security-Policy">` may not carry:
 * CSP Level 3, section 3.3 ("The <meta> element"), removes `report-uri`, `frame-ancestors` and
 * `sandbox` from such a policy (and Chromium logs a console error for each one it meets there).
 * They stay in the header only: on a host that sends no headers the page cannot forbid framing.
 */
export const HEADER_ONLY_DIRECTIVES = ['frame-ancestors', 'report-uri', 'sandbox'];

/**
 * The page's own policy, for its `<meta http-equiv>`: the header's minus HEADER_ONLY_DIRECTIVES,
 * and, for a page whose scripts are known by their SRI (`scriptHashes`, `sha384-…`), the strict
 * form of script-src: those scripts by their hash and `'strict-dynamic'`, so a CSP3 browser runs
 * no other script, even one of our origin (an upload, a JSONP answer), while `'self'` stays for
 * browsers before CSP3, which ignore the other two. A hash source allows an external script whose
 * `integrity` names that hash (CSP Level 3, "Does element match source list"); measured: Chromium
 * 156 and Firefox ESR 153 refuse the page's script under a wrong hash, WebKitGTK 2.50 runs it
 * anyway (there, `'self'` is what limits scripts). The header keeps `script-src 'self'`: hosts'
 * configurations (deploy/nginx.conf) do not change with each build, and the hashes do.
 * The build writes it into every HTML file, so a host that sends no headers at all (GitHub Pages,
 * S3, `python3 -m http.server`) still gets it; where the host also sends the header, a browser
 * enforces both, and this one allows nothing the header forbids.
 * @param {string[]} [scriptHashes]
 */
export function metaPolicyFor(scriptHashes = []) {
  const directives = Object.fromEntries(
    Object.entries(CONTENT_SECURITY_POLICY).filter(([directive]) => !HEADER_ONLY_DIRECTIVES.includes(directive)),
  );
  if (scriptHashes.length > 0)
    directives['script-src'] = [directives['script-src'], "'strict-dynamic'", ...scriptHashes.map((hash) => `'${hash}'`)].join(' ');
  return serializePolicy(directives);
}

/** The page's own policy for a page without known scripts (a dev build's, with no `integrity`). */
export const META_CONTENT_SECURITY_POLICY = metaPolicyFor();

/**
 * The `<meta>` element carrying metaPolicyFor(scriptHashes). A meta policy governs only what the
 * parser meets after it (CSP Level 3, 3.3: it is added to the document's policy list when the
 * element is inserted), so the build puts it first in `<head>`, right after `<meta charset>`.
 * @param {string[]} [scriptHashes]
 */
export const cspMetaElement = (scriptHashes = []) =>
  `<meta http-equiv="Content-Security-Policy" content="${metaPolicyFor(scriptHashes).replaceAll('&', '&amp;').replaceAll('"', '&quot;')}">`;

/** The `<meta>` element of a page without known scripts (META_CONTENT_SECURITY_POLICY). */
export const CSP_META_ELEMENT = cspMetaElement();

/**
 * Headers every response carries: the CSP above; no MIME sniffing; no referrer leaks; no framing
 * for browsers that predate `frame-ancestors` (X-Frame-Options, RFC 7034); a browsing context
 * group of its own, so a page that opened ours (or that ours opened) holds no reference to it
 * (Cross-Origin-Opener-Policy, HTML "cross-origin opener policies"); no other site may load our
 * files as no-cors subresources, which keeps them out of its process (Cross-Origin-Resource-Policy,
 * Fetch "cross-origin resource policy check"); and the unused powerful features denied.
 */
export const SECURITY_HEADERS = {
  'Content-Security-Policy': serializePolicy(CONTENT_SECURITY_POLICY),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': DENIED_FEATURES.map((feature) => `${feature}=()`).join(', '),
};

/**
 * HTTP Strict Transport Security for the HTTPS server block only (RFC 6797): two years, every
 * subdomain. Browsers ignore it over plain HTTP, and `preload` is a decision for the site's owner
 * (it commits the whole domain), so it is not the default.
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=63072000; includeSubDomains';

/** The media type of the web app manifest (W3C Web App Manifest, "Media type registration"). */
export const MANIFEST_TYPE = 'application/manifest+json';

/**
 * Content-Type per file extension, as the preview server sends them.
 * @type {Record<string, string>}
 */
export const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': `${MANIFEST_TYPE}; charset=utf-8`,
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.woff2': 'font/woff2',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.vtt': 'text/vtt; charset=utf-8',
};

/**
 * Cache-Control for a URL path (`/assets/app-X.js`, `/status/`, `/sw.js`).
 * @param {string} urlPath
 */
export const cacheControlOf = (urlPath) => (HASHED_ASSET.test(urlPath) ? CACHE_CONTROL.immutable : CACHE_CONTROL.revalidate);

/**
 * The headers this project promises for a URL path answered with a file: Cache-Control, the
 * security headers and, for the web app manifest, its media type. What the README's table says.
 * @param {string} urlPath
 * @returns {Record<string, string>}
 */
export function headersFor(urlPath) {
  return {
    'Cache-Control': cacheControlOf(urlPath),
    ...SECURITY_HEADERS,
    ...(urlPath.endsWith('.webmanifest') ? { 'Content-Type': MANIFEST_TYPE } : {}),
  };
}

/**
 * The URL paths a file of dist/ is reachable at, the one the worker precaches and the links use
 * first: `dir/index.html` at `dir/` and itself; any other `name.html` at itself and at `name`,
 * where Cloudflare Pages serves it (its "pretty URLs": `/404.html` answers 308 to `/404`, and
 * `/dir/index.html` 308 to `/dir/`).
 * @param {string} filePath
 */
export function urlPathsOf(filePath) {
  if (filePath === 'index.html' || filePath.endsWith('/index.html')) return ['/' + filePath.slice(0, -'index.html'.length), '/' + filePath];
  if (filePath.endsWith('.html')) return ['/' + filePath, '/' + filePath.slice(0, -'.html'.length)];
  return ['/' + filePath];
}

/**
 * `_headers` for Netlify and Cloudflare Pages: the security headers for every path, then
 * Cache-Control (and the manifest's type) named file by file, since its patterns cannot say
 * "a hashed name". Both hosts apply every rule that matches, and a header set by two matching
 * rules is joined (Cloudflare: "a, b") or overridden (Netlify), so no header here is set by two
 * rules that match one path: `/*` carries no Cache-Control.
 * @param {Iterable<string>} filePaths
 * @param {string} [base]
 */
export function headersFile(filePaths, base = '/') {
  /**
   * @param {string} pattern
   * @param {Record<string, string>} headers
   */
  const rule = (pattern, headers) => [pattern, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)].join('\n');
  const rules = [rule('/*', SECURITY_HEADERS)];
  for (const file of [...filePaths].sort()) {
    if (file === HEADERS_FILE) continue;
    for (const urlPath of urlPathsOf(file)) {
      const { 'Cache-Control': cacheControl, 'Content-Type': type } = headersFor(urlPath);
      rules.push(rule(base + urlPath.slice(1), { 'Cache-Control': cacheControl, ...(type ? { 'Content-Type': type } : {}) }));
    }
  }
  const head = [
    '# Response headers for Netlify and Cloudflare Pages, written by the build from tools/headers.mjs.',
    '# No header is set by two rules that match one path (the hosts join or override duplicates).',
  ];
  return `${head.join('\n')}\n\n${rules.join('\n\n')}\n`;
}
