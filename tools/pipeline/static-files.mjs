// The files of static/ as shipped.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { listFiles } from './list-files.mjs';
import { webManifest } from './web-manifest.mjs';

/**
 * The files of static/ as shipped: copied, but the templates (index.html, the web app manifest) filled in.
 * @param {string} root
 * @param {string} manifestTemplate
 * @param {import('../config.mjs').Identity} identity
 * @param {string} description
 * @returns {Promise<Map<string, Buffer>>}
 */
export async function staticFiles(root, manifestTemplate, identity, description) {
  const files = new Map();
  for (const file of await listFiles(path.join(root, 'static'))) {
    if (file === 'index.html' || file === 'manifest.webmanifest') continue;
    files.set(file, await fs.readFile(path.join(root, 'static', file)));
  }
  files.set(
    'manifest.webmanifest',
    Buffer.from(
      webManifest(manifestTemplate, { name: identity.__APP_NAME__, title: identity.__APP_TITLE__, description }, identity.__BASE__),
    ),
  );
  return files;
}
