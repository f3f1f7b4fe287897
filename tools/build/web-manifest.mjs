// The web app manifest, manifest.webmanifest, filled in from its template.
import { BuildError } from '../build-error.mjs';

/**
 * The web app manifest from its template (static/manifest.webmanifest): `name` and `short_name`
 * come from package.json, so the installed app carries the same name as everything else.
 * @param {string} templateText
 * @param {string} appTitle
 * @param {string} [base]
 */
export function webManifest(templateText, appTitle, base = '/') {
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
  return JSON.stringify({ name: appTitle, short_name: appTitle, ...manifest }, null, 2) + '\n';
}
