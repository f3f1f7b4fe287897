// The build pipeline's steps, kept out of build.mjs so that file stays a readable CLI.
// Every step is deterministic: sorted inputs, content hashes, no timestamps.
import { createHash } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { listScreens, screensPlugin } from './screens.mjs';

// Required, not imported: esbuild's API is CommonJS, and an ES module importing it makes Node scan
// its 97 KB for export names first (cjs-module-lexer, ≈ 30 ms of every build's start on Node 20).
const esbuild = createRequire(import.meta.url)('esbuild');

/** The esbuild version that bundles the site (the SBOM names its tools). */
export const esbuildVersion = esbuild.version;

/** Thrown for problems the user must fix; build.mjs prints only its message. */
export class BuildError extends Error {
  name = 'BuildError';
}

/** SRI value of a buffer: `sha384-<base64>` (https://www.w3.org/TR/SRI/). */
export const sri = (buf) => 'sha384-' + createHash('sha384').update(buf).digest('base64');

/** Gzip at level 9, as static hosts and CDNs pre-compress; Node writes mtime 0, so it is stable. */
const GZIP_OPTIONS = { level: 9 };
const gzipOnThreadPool = promisify(zlib.gzip);

/** The gzip size of some bytes (the budgets' measure). */
export const gzipSize = (buf) => zlib.gzipSync(buf, GZIP_OPTIONS).length;

const brotliOnThreadPool = promisify(zlib.brotliCompress);

/**
 * Brotli quality 9, not 11: on the React bundle 11 takes about 530 ms on these machines, 10 about
 * 230 ms and 9 about 60 ms, and the bundle's compression is on the build's critical path. What 9
 * costs: 72,147 B against 66,946 B at 11 (+8 %), still 7 % under gzip's 77,276 B.
 */
const BROTLI_QUALITY = 9;

/**
 * The smallest brotli window that holds the whole file (brotli's window is 2^bits - 16 bytes; 10 to
 * 24 bits). Node's brotli is the streaming encoder, which keeps the default 22-bit window whatever
 * the size: sized for 4 MB, its tables made a 1.5 KB page take 3.7 ms instead of 0.3 ms, and a
 * build compresses about 40 such files. The output differs by a few bytes of header at most.
 */
const brotliWindowBits = (size) => Math.min(24, Math.max(10, Math.ceil(Math.log2(size + 16))));

const brotliOptions = (size) => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
    [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(size),
  },
});

/**
 * Files up to this size are compressed on the main thread. For them, handing the work to libuv's
 * thread pool costs more than the work: 16 small files of a build took 6 ms one after the other
 * and 12 to 27 ms through the pool. Larger files (the page bundle: ≈ 60 ms of brotli) go to the
 * pool, so the rest of the build goes on beside them.
 */
const MAIN_THREAD_LIMIT = 64 * 1024;

/** Gzip and brotli copies of some bytes: [gzipped, brotlied]. */
async function compress(contents) {
  if (contents.length <= MAIN_THREAD_LIMIT) return [zlib.gzipSync(contents, GZIP_OPTIONS), zlib.brotliCompressSync(contents, brotliOptions(contents.length))];
  return Promise.all([gzipOnThreadPool(contents, GZIP_OPTIONS), brotliOnThreadPool(contents, brotliOptions(contents.length))]);
}

/** Files that hosts serve compressed (text); images are compressed already. */
const COMPRESSIBLE = /\.(html|js|mjs|css|json|webmanifest|txt|svg)$/;

/**
 * A file's audit record (bytes raw, gzip, brotli and its SRI hash) and its precompressed copies,
 * `<file>.gz` and `<file>.br`, for hosts that serve them to browsers that accept them (the preview
 * server; a web server's gzip_static). Only text files get copies, and only smaller ones. The audit and
 * the SRI hashes describe the decoded bytes, the same whatever the encoding on the wire.
 */
export async function auditAndCompress(filePath, contents) {
  const [gzipped, brotlied] = await compress(contents);
  const entry = { path: filePath, bytes: contents.length, gzip: gzipped.length, brotli: brotlied.length, sha384: sri(contents) };
  const copies = new Map();
  if (COMPRESSIBLE.test(filePath)) {
    if (gzipped.length < contents.length) copies.set(filePath + '.gz', gzipped);
    if (brotlied.length < contents.length) copies.set(filePath + '.br', brotlied);
  }
  return { entry, copies };
}

/** One line from esbuild's first message: `file:line:col: text`. */
export function esbuildReason(err) {
  const m = err?.errors?.[0];
  if (!m) return String(err?.message ?? err).split('\n')[0];
  const where = m.location ? `${m.location.file}:${m.location.line}:${m.location.column + 1}: ` : '';
  return where + m.text;
}

/** Runs esbuild and turns its failure into a one-line BuildError. */
export async function bundle(options) {
  try {
    return await esbuild.build({ logLevel: 'silent', write: false, legalComments: 'none', ...options });
  } catch (err) {
    throw new BuildError(esbuildReason(err));
  }
}

/**
 * The app's name constants from package.json, for esbuild `define` in the page and the worker
 * (src/app-name.ts): `name` is the id behind every cache, channel and storage key; `displayName`
 * (optional) is what people read. Throws a one-line BuildError for a name that cannot serve.
 */
export function appIdentity(pkg, base = '/') {
  if (typeof pkg.name !== 'string' || !/^[a-z0-9][a-z0-9._-]*$/.test(pkg.name))
    throw new BuildError('package.json "name" must be lowercase letters, digits, ".", "_" or "-" (it names caches and storage keys)');
  const title = pkg.displayName ?? pkg.name;
  if (typeof title !== 'string' || !title.trim()) throw new BuildError('package.json "displayName" must be a non-empty string');
  return { __APP_NAME__: pkg.name, __APP_TITLE__: title, __BASE__: checkedBase(base) };
}

/**
 * The path the site is served under (`--base`): `/` or `/some/path/`, starting and ending with a
 * slash, as every URL of the app is built by appending to it. Anything else is a one-line error.
 */
export function checkedBase(base) {
  if (typeof base !== 'string' || !/^\/([A-Za-z0-9._~-]+\/)*$/.test(base)) throw new BuildError(`--base must start and end with "/" and hold only plain path segments (for example /my-app/), not ${JSON.stringify(base)}`);
  return base;
}

// preact/compat implements the React API the app uses; esbuild's alias also maps subpaths
// (react/jsx-runtime -> preact/compat/jsx-runtime, react-dom/client -> preact/compat/client).
const PREACT_ALIAS = { react: 'preact/compat', 'react-dom': 'preact/compat' };

/** The import aliases of a build: none for React, React -> preact/compat for `--preact`. */
export const frameworkAlias = (preact) => (preact ? PREACT_ALIAS : {});

/** The constants esbuild replaces in the page's code (and in its prerendering at build time). */
export const pageDefines = ({ dev, identity }) => ({
  'process.env.NODE_ENV': JSON.stringify(dev ? 'development' : 'production'),
  __DEV__: String(!!dev),
  __APP_NAME__: JSON.stringify(identity.__APP_NAME__),
  __APP_TITLE__: JSON.stringify(identity.__APP_TITLE__),
  __BASE__: JSON.stringify(identity.__BASE__),
});

/** The esbuild options of the page bundle (shared by the real build and the app-only measure). */
export const appOptions = ({ root, preact, dev, identity }) => ({
  absWorkingDir: root,
  entryPoints: { app: 'src/main.tsx' },
  // V8's explicit compile hint (Chrome 136+; a plain comment elsewhere): compile every function
  // of the file on a background thread while it streams in. Without it, each function React
  // calls on load (its CommonJS module bodies first) is compiled on the main thread at its first
  // call, in the long task that evaluates the bundle. Lighthouse's total blocking time, 3 runs
  // each: 36-78 ms without, 0-10 ms with. It must be the file's first line.
  banner: { js: '//# allFunctionsCalledOnLoad' },
  bundle: true,
  format: 'esm',
  target: 'es2020',
  minify: !dev,
  jsx: 'automatic',
  alias: frameworkAlias(preact),
  define: pageDefines({ dev, identity }),
  entryNames: 'assets/[name]-[hash]',
  assetNames: 'assets/[name]-[hash]',
  outdir: 'out',
  metafile: true,
  plugins: [screensPlugin(root)],
});

// The UI frameworks; everything else in the bundle is "app code", budgeted on its own.
const FRAMEWORKS = ['react', 'react-dom', 'scheduler', 'preact'];

/**
 * Bundles src/main.tsx to hashed assets; returns [{ path, contents }] relative to the site root,
 * plus `licenses.txt` (third-party licences of the bundle). `appGzip` on the array is the gzip
 * size of the app code alone (frameworks left out), or null in dev builds; `metafile` is esbuild's
 * account of what went into the bundle (the SBOM's source).
 */
export async function buildApp({ root, preact, dev, identity }) {
  const options = appOptions({ root, preact, dev, identity });
  // 'external' makes esbuild collect the bundled code's legal comments (/*! */, @license,
  // @preserve) into a side file instead of dropping them; licenses.txt carries them.
  const [result, appGzip] = await Promise.all([bundle({ ...options, legalComments: 'external' }), dev ? null : appCodeGzip(options)]);
  const outDir = path.join(root, 'out');
  const files = result.outputFiles.map((f) => ({ path: path.relative(outDir, f.path).split(path.sep).join('/'), contents: Buffer.from(f.contents) }));
  const legal = files.filter((f) => f.path.endsWith('.LEGAL.txt'));
  const assets = files.filter((f) => !legal.includes(f));
  assets.push({ path: 'licenses.txt', contents: Buffer.from(await licenses(root, result.metafile, legal)) });
  return Object.assign(assets, { appGzip, metafile: result.metafile });
}

/** The gzip size of the app's own code: the same bundle with the frameworks left out. */
async function appCodeGzip(options) {
  const alone = await bundle({ ...options, external: FRAMEWORKS, metafile: false });
  // esbuild keeps one `import{…}from"react…"` per module for externals; the real bundle has none
  // (it references the bundled framework), so they are not counted as app code.
  const glue = new RegExp(`import\\s*(\\{[^}]*\\}|\\*\\s*as\\s*[\\w$]+|[\\w$]+)\\s*from\\s*"(${FRAMEWORKS.join('|')})(/[^"]*)?";`, 'g');
  const scripts = alone.outputFiles.filter((f) => f.path.endsWith('.js'));
  return scripts.reduce((total, f) => total + gzipSize(Buffer.from(f.text.replace(glue, ''))), 0);
}

/** An esbuild input path's package: the folder under the last `node_modules/` (`@scope/name` or `name`), or null for app code. */
export function packageOfInput(input) {
  const match = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\/(.+)$/.exec(input);
  return match ? { dir: match[1], name: match[2], file: match[3] } : null;
}

/**
 * The licences of the third-party packages in the bundle, sorted by name: each package's name,
 * version, licence and LICENSE file, then the legal comments esbuild extracted. Only files the
 * bundle really contains count (esbuild's metafile), so it is exact and deterministic.
 */
async function licenses(root, metafile, legal) {
  const dirs = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const owner = packageOfInput(input);
    if (owner) dirs.set(owner.name, path.join(root, owner.dir));
  }
  // Packages with the same licence text (react, react-dom, scheduler) share one copy of it.
  const byText = new Map();
  for (const name of [...dirs.keys()].sort()) {
    const dir = dirs.get(name);
    const pkg = JSON.parse(await fs.readFile(path.join(dir, 'package.json'), 'utf8'));
    const file = (await fs.readdir(dir)).sort().find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const text = file ? (await fs.readFile(path.join(dir, file), 'utf8')).trim() : `(no licence file; package.json says ${pkg.license ?? 'nothing'})`;
    byText.set(text, [...(byText.get(text) ?? []), `== ${name} ${pkg.version} (${pkg.license ?? 'unknown'}) ==`]);
  }
  const parts = ['Third-party code bundled into this app, and its licences.\n'];
  for (const [text, heads] of byText) parts.push(`${heads.join('\n')}\n\n${text}\n`);
  for (const f of legal) parts.push(`== Legal comments in ${f.path.replace(/\.LEGAL\.txt$/, '')} ==\n\n${f.contents.toString('utf8').replace(/^Bundled license information:\n\n/, '').trim()}\n`);
  return parts.join('\n');
}

/** Lists files under dir as sorted posix paths relative to it. */
export async function listFiles(dir, base = dir) {
  const out = [];
  for (const ent of (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, ent.name);
    if (ent.isDirectory()) out.push(...(await listFiles(full, base)));
    else if (ent.isFile()) out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out;
}

/** Where the prerendered route goes: the template's empty root element. */
const ROOT = '<div id="root"></div>';

const escapeHtml = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/**
 * Renders one route's HTML from the template: `%TITLE%` (the route's), `%APP_TITLE%` (the app's),
 * the `<!--assets-->` marker, and `body` (the prerendered route) inside the empty #root.
 * Assets get `integrity` so a tampered CDN copy is refused (module scripts are CORS requests,
 * which same-origin satisfies without a crossorigin attribute); dev builds leave it out.
 */
export function renderHtml(template, { title, appTitle, base = '/', assets, body, integrity = true }) {
  if (!template.includes('<!--assets-->')) throw new BuildError('static/index.html has no <!--assets--> marker');
  // The page hydrates #root (src/main.tsx), which the build fills with the prerendered route.
  if (!template.includes(ROOT)) throw new BuildError(`static/index.html has no element with id="root" (an empty ${ROOT})`);
  const integrityOf = (contents) => (integrity ? ` integrity="${sri(contents)}"` : '');
  const tags = assets
    .map(({ path: file, contents }) =>
      file.endsWith('.css')
        ? `<link rel="stylesheet" href="${base}${file}"${integrityOf(contents)}>`
        : `<script type="module" src="${base}${file}"${integrityOf(contents)}></script>`,
    )
    .join('\n');
  return template
    .replace(/%TITLE%/g, escapeHtml(title))
    .replace(/%APP_TITLE%/g, escapeHtml(appTitle))
    .replace(/%BASE%/g, base)
    .replace('<!--assets-->', tags)
    .replace(ROOT, () => ROOT.replace('></', `>${body}</`));
}

/**
 * The web app manifest from its template (static/manifest.webmanifest): `name` and `short_name`
 * come from package.json, so the installed app carries the same name as everything else.
 */
export function webManifest(templateText, appTitle, base = '/') {
  let manifest;
  try {
    manifest = JSON.parse(templateText);
  } catch (error) {
    throw new BuildError(`static/manifest.webmanifest is not valid JSON: ${error.message}`);
  }
  // Its own URLs (id, start_url, scope, icons) are written from the site root: under the base.
  const based = (value) => (typeof value === 'string' && value.startsWith('/') ? base + value.slice(1) : value);
  for (const key of ['id', 'start_url', 'scope']) if (key in manifest) manifest[key] = based(manifest[key]);
  if (Array.isArray(manifest.icons)) manifest.icons = manifest.icons.map((icon) => ({ ...icon, src: based(icon.src) }));
  return JSON.stringify({ name: appTitle, short_name: appTitle, ...manifest }, null, 2) + '\n';
}

/** Short content version over all [path, sha384] pairs, stable for the same bytes. */
export function versionOf(entries) {
  const h = createHash('sha256');
  for (const e of [...entries].sort((a, b) => (a.path < b.path ? -1 : 1))) h.update(`${e.path}\0${e.sha384}\n`);
  return h.digest('hex').slice(0, 12);
}

/** Reads a file of the project; a missing one is a one-line BuildError naming it. */
async function readRequired(root, relativePath) {
  try {
    return await fs.readFile(path.join(root, relativePath), 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') throw new BuildError(`missing ${relativePath}`);
    throw error;
  }
}

/** Parses JSON; invalid JSON is a one-line BuildError naming the file. */
function parseJson(text, relativePath) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BuildError(`${relativePath} is not valid JSON: ${error.message}`);
  }
}

/**
 * Reads and checks what every build needs: the HTML and web app manifest templates, the routes
 * of src/ui/screens/ (plus the not-found route '/404' for 404.html), package.json and the names and settings in it.
 */
export async function readProject(root, { base = '/' } = {}) {
  const template = await readRequired(root, 'static/index.html');
  const manifestTemplate = await readRequired(root, 'static/manifest.webmanifest');
  const routes = [...listScreens(root).map(({ path: routePath, title }) => ({ path: routePath, title })), { path: '/404', title: 'Not found' }];
  const pkg = parseJson(await readRequired(root, 'package.json'), 'package.json');
  // Imported here, not at the top: tools/worker.mjs imports this module.
  const { networkOnlyOf } = await import('./worker.mjs');
  return { template, manifestTemplate, routes, pkg, identity: appIdentity(pkg, base), networkOnly: networkOnlyOf(pkg) };
}

/** The HTML file a route is written to: `/status/` -> `status/index.html`; '/404' -> `404.html`. */
export const htmlFileOf = (routePath) => (routePath === '/404' ? '404.html' : routePath.slice(1) + 'index.html');

/** The files of static/ as shipped: copied, but the templates (index.html, the web app manifest) filled in. */
export async function staticFiles(root, manifestTemplate, identity) {
  const files = new Map();
  for (const file of await listFiles(path.join(root, 'static'))) {
    if (file === 'index.html' || file === 'manifest.webmanifest') continue;
    files.set(file, await fs.readFile(path.join(root, 'static', file)));
  }
  files.set('manifest.webmanifest', Buffer.from(webManifest(manifestTemplate, identity.__APP_TITLE__, identity.__BASE__)));
  return files;
}

/** Writes the files to a temporary sibling of `out`, then swaps it in, so `out` is never half-written. */
export async function writeAtomically(out, files) {
  const temporary = `${out}.tmp-${process.pid}`;
  const old = `${out}.old-${process.pid}`;
  await fs.rm(temporary, { recursive: true, force: true });
  try {
    const folders = new Set([...files.keys()].map((file) => path.dirname(path.join(temporary, file))));
    for (const folder of [...folders].sort()) await fs.mkdir(folder, { recursive: true });
    await Promise.all([...files].map(([file, contents]) => fs.writeFile(path.join(temporary, file), contents)));
    if (existsSync(out)) await fs.rename(out, old);
    await fs.rename(temporary, out);
  } finally {
    await fs.rm(temporary, { recursive: true, force: true });
    await fs.rm(old, { recursive: true, force: true });
  }
}
