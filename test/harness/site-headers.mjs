// The security headers a built site is served with when it is not this checkout's build: the tests'
// update from an older release, and the bench's --compare site. A page of an older release, or a
// peer's built for no Trusted Types, never ran under today's policy: its register() would be refused.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SECURITY_HEADERS } from '../../tools/headers.mjs';

/**
 * The headers a built site's own `_headers` sets for every path (its `/*` rule): what the host was
 * told to send with that version.
 * @param {string} dir
 * @returns {Record<string, string>}
 */
export function headersOfItsTime(dir) {
  const rules = readFileSync(path.join(dir, '_headers'), 'utf8').split(/\n(?=\S)/);
  const everyPath = rules.find((rule) => rule.startsWith('/*\n'));
  if (!everyPath) throw new Error(`${dir}/_headers has no rule for /*`);
  /** @type {Record<string, string>} */
  const headers = {};
  for (const line of everyPath.split('\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** Today's security headers without Trusted Types: for a site that says nothing of its own. */
function headersWithoutTrustedTypes() {
  const directives = SECURITY_HEADERS['Content-Security-Policy'].split('; ');
  const policy = directives.filter((directive) => !/^(require-trusted-types-for|trusted-types)\b/.test(directive)).join('; ');
  return { ...SECURITY_HEADERS, 'Content-Security-Policy': policy };
}

/**
 * The security headers to serve another built site with: those of its own `_headers`, or today's
 * without Trusted Types for a site that has none (a Vite peer).
 * @param {string} dir
 * @returns {Record<string, string>}
 */
export const headersForSite = (dir) => (existsSync(path.join(dir, '_headers')) ? headersOfItsTime(dir) : headersWithoutTrustedTypes());
