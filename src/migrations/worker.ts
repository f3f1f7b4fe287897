// The worker's part of the migrations from this template's earlier releases (the page's: page.ts):
// the offline copy an earlier release stored for this app, in a cache named `<name>-<version>`
// (no base in it, so shared by every base of the name). Importing this module makes the worker
// count it as its own (src/sw/our-caches.ts countAsOurs): it is deleted once this version's own copy
// is whole (at activation), so a person updating keeps an offline copy all along, and by the kill switch.
import { APP_NAME } from '../contract/app-name';
import { MANIFEST_URL } from '../sw/config';
import { countAsOurs } from '../sw/our-caches';

/** Whether `name` has the form of a cache of the earlier releases (any base): the name, a dash, 12 hex digits. */
export const isLegacyCacheName = (name: string): boolean =>
  /^[0-9a-f]{12}$/.test(name.slice(APP_NAME.length + 1)) && name.startsWith(`${APP_NAME}-`);

/** Whether `name` is the offline copy an earlier release stored for this app at this base: the copy tells by what it holds, this base's precache list. */
export async function isOurLegacyCache(name: string): Promise<boolean> {
  // caches.match with a cacheName opens nothing that does not exist (caches.open would create it).
  return isLegacyCacheName(name) && !!(await caches.match(MANIFEST_URL, { cacheName: name }));
}

countAsOurs(isOurLegacyCache);
