// The precache check, framework-free: is every file of this build in our caches, byte for byte?
import type { Audit } from '../about/audit';

/** Result of a precache check: files verified of total, their bytes, and what failed. */
export interface Verdict {
  total: number;
  ok: number;
  bytes: number;
  failed: string[];
}

/** The URL a file is cached under: a route's HTML under its directory URL (`status/index.html` -> `/status/`). */
export const urlOf = (path: string): string => '/' + path.replace(/(^|\/)index\.html$/, '$1');

/** SRI form of the SHA-384 of some bytes, computed in the page (`crypto.subtle`). */
export async function sri(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', bytes));
  return 'sha384-' + btoa(String.fromCharCode(...digest));
}

/**
 * Checks each file of the audit against our caches (names start with `<audit.name>-`; other apps
 * may share the origin). sw.js is not precached (the browser keeps the worker itself) and
 * audit.json cannot list its own hash, so both are left out. Null when nothing is cached yet.
 */
export async function verifyPrecache(audit: Audit): Promise<Verdict | null> {
  const names = self.caches ? (await caches.keys()).filter((n) => n.startsWith(audit.name + '-')) : [];
  if (!names.length) return null;
  // While an update waits, the old version's cache is still there: prefer this version's.
  const mine = names.filter((n) => n.includes(audit.version));
  const open = await Promise.all((mine.length ? mine : names).map((n) => caches.open(n)));
  const files = audit.files.filter((f) => f.path !== 'sw.js' && f.path !== 'audit.json');
  const v: Verdict = { total: files.length, ok: 0, bytes: 0, failed: [] };
  for (const f of files) {
    let res: Response | undefined;
    for (const c of open) if ((res = await c.match(urlOf(f.path)))) break;
    if (!res) v.failed.push(`${f.path}: not cached`);
    else if ((await sri(await res.arrayBuffer())) !== f.sha384) v.failed.push(`${f.path}: hash mismatch`);
    else {
      v.ok++;
      v.bytes += f.bytes;
    }
  }
  return v;
}
