// What every build reads from the project: the two templates, then the configuration.
import { readConfig } from '../config.mjs';
import { readRequired } from '../project-files.mjs';

/**
 * Reads and checks what every build needs: the HTML and web app manifest templates, then the
 * configuration (tools/config.mjs: the screens, package.json and the names and settings in it).
 * @param {string} root
 * @param {{ base?: string }} [options]
 * @returns {Promise<import('../config.mjs').Config & { template: string, manifestTemplate: string }>}
 */
export async function readProject(root, { base = '/' } = {}) {
  const template = await readRequired(root, 'static/index.html');
  const manifestTemplate = await readRequired(root, 'static/manifest.webmanifest');
  return { template, manifestTemplate, ...(await readConfig(root, { base })) };
}
