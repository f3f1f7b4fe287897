// The web app manifest, manifest.webmanifest, filled in from its template.
import { BuildError } from '../build-error.mjs';

/**
 * The manifest's `id`: the app's base with its name, `/my-app/?app=notes`. Browsers tell installed
 * apps apart by it (W3C Web App Manifest, "id member": resolved against start_url's origin, the
 * fragment dropped, so the name goes in the query), and one app is its name and its base: two apps
 * on one origin, or an app renamed in place, are two apps to the browser.
 * @param {string} name
 * @param {string} base
 */
export const manifestId = (name, base) => `${base}?app=${encodeURIComponent(name)}`;

/**
 * The web app manifest from its template (static/manifest.webmanifest): `name`, `short_name` and
 * `description` come from package.json, so the installed app says the same as everything else, and
 * `id` from the name and the base (manifestId); a template that sets one of them otherwise is a
 * one-line BuildError, not a silent win.
 * @param {string} templateText
 * @param {{ name: string, title: string, description: string }} app
 * @param {string} [base]
 */
export function webManifest(templateText, { name, title, description }, base = '/') {
  let manifest;
  try {
    manifest = JSON.parse(templateText);
  } catch (error) {
    throw new BuildError(`static/manifest.webmanifest is not valid JSON: ${/** @type {Error} */ (error).message}`);
  }
  // Its own URLs (id, start_url, scope, icons) are written from the site root: under the base.
  /** @param {unknown} value */
  const based = (value) => (typeof value === 'string' && value.startsWith('/') ? base + value.slice(1) : value);
  for (const key of ['id', 'start_url', 'scope']) if (key in manifest) manifest[key] = based(manifest[key]);
  if (Array.isArray(manifest.icons))
    manifest.icons = manifest.icons.map((/** @type {{ src?: unknown }} */ icon) => ({ ...icon, src: based(icon.src) }));
  const fromPackage = { id: manifestId(name, base), name: title, short_name: title, description };
  for (const [key, value] of Object.entries(fromPackage))
    if (key in manifest && manifest[key] !== value)
      throw new BuildError(
        `static/manifest.webmanifest has "${key}": ${JSON.stringify(manifest[key])}, but package.json makes it ${JSON.stringify(value)}: remove it from the template (the build writes it from package.json)`,
      );
  return JSON.stringify({ ...fromPackage, ...manifest }, null, 2) + '\n';
}
