// Each screen's HTML, filled in from the template static/index.html.
import { BuildError } from '../build-error.mjs';
import { cspMetaElement } from '../headers.mjs';
import { sri } from '../sri.mjs';

/** Where the prerendered route goes: the template's empty root element. */
const ROOT = '<div id="root"></div>';

/**
 * Where the page's own policy goes: right after `<head>` and its `<meta charset>` if that comes
 * first (the charset must be in the first 1024 bytes, HTML "specifying the document's character
 * encoding"), before any element that loads something (a meta policy governs only what comes after it).
 */
const HEAD_START = /<head\b[^>]*>(\s*<meta charset="[^"]*">)?/i;

/** @param {string} s */
const escapeHtml = (s) =>
  s.replace(/[&<>"]/g, (c) => /** @type {Record<string, string>} */ ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/**
 * Renders one route's HTML from the template: `%TITLE%` (the route's), `%APP_TITLE%` and
 * `%DESCRIPTION%` (the app's, from package.json),
 * the `<!--assets-->` marker, and `body` (the prerendered route) inside the empty #root; the
 * page's own Content-Security-Policy goes first in `<head>` (cspMetaElement: with the hashes of its
 * scripts when they carry `integrity`).
 * Assets get `integrity` so a tampered CDN copy is refused (module scripts are CORS requests,
 * which same-origin satisfies without a crossorigin attribute); dev builds leave it out.
 * `preloads` are scripts the page's script imports (and those of the route's own lazily loaded
 * screen): `<link rel="modulepreload">` fetches them, checked, beside it rather than after it.
 * `lazy` names the scripts of every module loaded on use with their hashes, in a meta element
 * (src/ui/screen-loader.ts reads it and checks each before it runs).
 * @param {string} template
 * @param {{ title: string, appTitle: string, description?: string, base?: string, assets: { path: string, contents: Buffer }[], preloads?: { path: string, contents: Buffer }[], lazy?: Record<string, { path: string, contents: Buffer }[]>, body: string | undefined, integrity?: boolean }} page
 */
export function renderHtml(
  template,
  { title, appTitle, description = appTitle, base = '/', assets, preloads = [], lazy = {}, body, integrity = true },
) {
  if (!template.includes('<!--assets-->')) throw new BuildError('static/index.html has no <!--assets--> marker');
  // The page hydrates #root (src/main.tsx), which the build fills with the prerendered route.
  if (!template.includes(ROOT)) throw new BuildError(`static/index.html has no element with id="root" (an empty ${ROOT})`);
  if (!HEAD_START.test(template)) throw new BuildError("static/index.html has no <head> for the page's own Content-Security-Policy");
  // One policy, from tools/headers.mjs: a second one in the template would be enforced as well.
  if (/http-equiv\s*=\s*"?content-security-policy/i.test(template))
    throw new BuildError('static/index.html has a Content-Security-Policy of its own; the build writes the one of tools/headers.mjs');
  /** @param {Buffer} contents */
  const integrityOf = (contents) => (integrity ? ` integrity="${sri(contents)}"` : '');
  const styles = assets.filter(({ path: file }) => file.endsWith('.css'));
  const scripts = assets.filter(({ path: file }) => !file.endsWith('.css'));
  const lazyScripts = Object.entries(lazy).map(([module, files]) => [
    module,
    files.map(({ path: file, contents }) => [file, sri(contents)]),
  ]);
  const tags = [
    ...styles.map(({ path: file, contents }) => `<link rel="stylesheet" href="${base}${file}"${integrityOf(contents)}>`),
    ...(lazyScripts.length ? [`<meta name="lazy-scripts" content="${escapeHtml(JSON.stringify(Object.fromEntries(lazyScripts)))}">`] : []),
    ...preloads.map(({ path: file, contents }) => `<link rel="modulepreload" href="${base}${file}"${integrityOf(contents)}>`),
    ...scripts.map(({ path: file, contents }) => `<script type="module" src="${base}${file}"${integrityOf(contents)}></script>`),
  ].join('\n');
  // A preload the parser meets is a script request too: under 'strict-dynamic' it needs its hash.
  const scriptHashes = integrity ? [...preloads, ...scripts].map(({ contents }) => sri(contents)) : [];
  return template
    .replace(HEAD_START, (head) => `${head}\n${cspMetaElement(scriptHashes)}`)
    .replace(/%TITLE%/g, escapeHtml(title))
    .replace(/%APP_TITLE%/g, escapeHtml(appTitle))
    .replace(/%DESCRIPTION%/g, escapeHtml(description))
    .replace(/%BASE%/g, base)
    .replace('<!--assets-->', tags)
    .replace(ROOT, () => ROOT.replace('></', `>${body}</`));
}

/**
 * The HTML file a route is written to: `/status/` -> `status/index.html`; '/404' -> `404.html`.
 * @param {string} routePath
 */
export const htmlFileOf = (routePath) => (routePath === '/404' ? '404.html' : routePath.slice(1) + 'index.html');
