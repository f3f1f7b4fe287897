// The nginx configurations in deploy/, generated from the one header table (tools/headers.mjs):
// `node deploy/nginx.mjs --nginx > deploy/nginx.conf`, `node deploy/nginx.mjs --nginx-https >
// deploy/nginx-https.conf` and `node deploy/nginx.mjs --nginx-subpath > deploy/nginx-subpath.conf`
// after a change to the table; a unit test fails when any drifts.
import {
  CACHE_CONTROL,
  HASHED_ASSET_PATTERN,
  MANIFEST_TYPE,
  SECURITY_HEADERS,
  STRICT_TRANSPORT_SECURITY,
  headersFor,
} from '../tools/headers.mjs';

const NGINX_INDENT = '    ';

/**
 * nginx `add_header` lines. `always` adds them to error answers too (the 404 page), except a
 * year of caching: an error must never be kept that long.
 * @param {Record<string, string>} headers
 * @param {string} indent
 */
const addHeaders = (headers, indent) =>
  Object.entries(headers).map(([name, value]) => {
    const always = value === CACHE_CONTROL.immutable ? '' : ' always';
    return `${indent}add_header ${name} "${value.replaceAll('"', '\\"')}"${always};`;
  });

/** The sub-path deploy/nginx-subpath.conf serves the app under (a build with `--base /my-app/`). */
export const SUBPATH_BASE = '/my-app/';

/**
 * The lines of a server block after `listen`: the site itself (root, compression, routes) and
 * headersFor()'s headers, with `extraHeaders` (HSTS over HTTPS) on every answer. nginx's
 * `add_header` is inherited only by a level that has none of its own, so every location repeats
 * the whole set. Under a `base` other than `/`, `root` is the folder that holds the build as
 * `<base>` (the URL path is the folder's), the app's location is the base, and its 404.html the
 * not-found page.
 * @param {Record<string, string>} [extraHeaders]
 * @param {string} [base]
 */
function nginxSiteLines(extraHeaders = {}, base = '/') {
  const i1 = NGINX_INDENT;
  const i2 = NGINX_INDENT.repeat(2);
  /**
   * @param {string} match
   * @param {Record<string, string>} headers
   * @param {string[]} [extra]
   */
  const location = (match, headers, extra = []) => [
    `${i1}location ${match} {`,
    ...extra.map((line) => i2 + line),
    ...addHeaders({ ...headers, ...extraHeaders }, i2),
    `${i1}}`,
  ];
  const root =
    base === '/'
      ? [`${i1}root /srv/offline-shell/dist;`]
      : [
          `${i1}# The folder that holds the build as ${base.slice(1)} (cp -r dist /srv/www${base.slice(0, -1)}): URL paths are its paths.`,
          `${i1}root /srv/www;`,
        ];
  return [
    ...root,
    `${i1}index index.html;`,
    `${i1}# Redirects (/status -> /status/) name no host or port: right behind a proxy or a TLS terminator too.`,
    `${i1}absolute_redirect off;`,
    `${i1}charset utf-8;`,
    `${i1}charset_types text/css text/plain application/javascript application/json ${MANIFEST_TYPE};`,
    '',
    `${i1}# The build writes a .gz copy beside every text file: sent as is to browsers that accept gzip.`,
    `${i1}gzip_static on;`,
    `${i1}# Anything without a copy is compressed on the fly; Vary keeps the encodings apart in caches.`,
    `${i1}gzip on;`,
    `${i1}gzip_types text/css text/plain application/javascript application/json ${MANIFEST_TYPE} image/svg+xml;`,
    `${i1}gzip_vary on;`,
    '',
    `${i1}# One file per route (status/index.html), so no rewrites; unknown paths get the app's 404 page.`,
    `${i1}try_files $uri $uri/ =404;`,
    `${i1}error_page 404 ${base}404.html;`,
    '',
    ...(base === '/' ? [] : [`${i1}# Other paths of this server are not the app's: give them locations of their own.`]),
    ...location(base, headersFor(base)),
    '',
    // Quoted: the braces of `{8,}` would otherwise end the directive.
    ...location(`~ "${HASHED_ASSET_PATTERN}"`, { 'Cache-Control': CACHE_CONTROL.immutable, ...SECURITY_HEADERS }),
    '',
    // `types` at this level replaces the whole inherited map, so this location's files get only
    // the manifest type (mime.types of nginx 1.22 has no entry for .webmanifest).
    ...location('~ \\.webmanifest$', { 'Cache-Control': CACHE_CONTROL.revalidate, ...SECURITY_HEADERS }, [
      'types { }',
      `default_type ${MANIFEST_TYPE};`,
    ]),
  ];
}

/** deploy/nginx.conf: one plain-HTTP server block with the same headers as headersFor(). */
export function nginxServerBlock() {
  const i1 = NGINX_INDENT;
  return [
    '# offline-shell on nginx: a server block to include inside `http { }` (after mime.types, as',
    "# Debian's /etc/nginx/nginx.conf does for sites-enabled/). Generated from tools/headers.mjs:",
    '# `node deploy/nginx.mjs --nginx > deploy/nginx.conf`. Replace `root` with your dist/ folder.',
    'server {',
    `${i1}listen 80;`,
    `${i1}server_name _;`,
    ...nginxSiteLines(),
    '}',
    '',
  ].join('\n');
}

/**
 * deploy/nginx-subpath.conf: one plain-HTTP server block serving a `--base /my-app/` build at
 * /my-app/, with the same headers as headersFor() and the app's own 404.html under the base.
 */
export function nginxSubpathServerBlock() {
  const i1 = NGINX_INDENT;
  return [
    `# offline-shell on nginx under a sub-path (npm run build -- --base ${SUBPATH_BASE}): a server block to`,
    "# include inside `http { }` (after mime.types, as Debian's /etc/nginx/nginx.conf does for",
    '# sites-enabled/). Generated from tools/headers.mjs: `node deploy/nginx.mjs --nginx-subpath >',
    `# deploy/nginx-subpath.conf\`. For another base, replace ${SUBPATH_BASE} everywhere and build with it.`,
    'server {',
    `${i1}listen 80;`,
    `${i1}server_name _;`,
    ...nginxSiteLines({}, SUBPATH_BASE),
    '}',
    '',
  ].join('\n');
}

/**
 * deploy/nginx-https.conf: a plain-HTTP server block that only redirects to the same URL over
 * HTTPS, and the TLS server block with headersFor()'s headers plus HSTS. The HTTP block sends no
 * HSTS: browsers ignore it there (RFC 6797 8.1), and the redirect comes first so the header is
 * seen over HTTPS.
 */
export function nginxHttpsConfig() {
  const i1 = NGINX_INDENT;
  return [
    '# offline-shell on nginx over HTTPS: two server blocks to include inside `http { }` (after',
    "# mime.types, as Debian's /etc/nginx/nginx.conf does for sites-enabled/). Generated from",
    '# tools/headers.mjs: `node deploy/nginx.mjs --nginx-https > deploy/nginx-https.conf`. Replace',
    '# `root` with your dist/ folder, `server_name` with your host, and the certificate paths with',
    "# yours (for example Let's Encrypt's fullchain.pem and privkey.pem).",
    'server {',
    `${i1}listen 80;`,
    `${i1}server_name _;`,
    `${i1}# Every plain-HTTP request goes to the same URL over HTTPS, and nothing else is served here.`,
    `${i1}return 301 https://$host$request_uri;`,
    '}',
    '',
    'server {',
    // `http2` as a listen parameter: nginx 1.22 (Debian 12) has no `http2 on;` (1.25.1+ warns that
    // the parameter is deprecated, and still accepts it).
    `${i1}listen 443 ssl http2;`,
    `${i1}server_name _;`,
    `${i1}ssl_certificate /etc/ssl/offline-shell/fullchain.pem;`,
    `${i1}ssl_certificate_key /etc/ssl/offline-shell/privkey.pem;`,
    `${i1}ssl_protocols TLSv1.2 TLSv1.3;`,
    ...nginxSiteLines({ 'Strict-Transport-Security': STRICT_TRANSPORT_SECURITY }),
    '}',
    '',
  ].join('\n');
}

/**
 * What `node deploy/nginx.mjs FLAG` prints: the generated host configurations.
 * @type {Record<string, () => string>}
 */
const GENERATORS = {
  '--nginx': nginxServerBlock,
  '--nginx-https': nginxHttpsConfig,
  '--nginx-subpath': nginxSubpathServerBlock,
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const generate = GENERATORS[process.argv[2]];
  if (!generate) {
    console.error(
      'usage: node deploy/nginx.mjs --nginx > deploy/nginx.conf\n       node deploy/nginx.mjs --nginx-https > deploy/nginx-https.conf\n       node deploy/nginx.mjs --nginx-subpath > deploy/nginx-subpath.conf',
    );
    process.exit(2);
  }
  process.stdout.write(generate());
}
