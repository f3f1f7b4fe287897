// Our caches among the origin's: an origin such as *.github.io is shared with other apps, and
// with other copies of this one at other bases, so the worker only ever deletes caches of this
// app at this base (src/contract/app-name.ts), and the caches the versions before left for it.
import { CACHE_PREFIX, isLegacyCacheName } from '../contract/app-name';
import { MANIFEST_URL } from './config';

/** Deletes every cache of ours except `keep`; resolves to how many were deleted. */
export async function deleteOurCaches(keep?: string): Promise<number> {
  const ours: string[] = [];
  for (const name of await caches.keys()) {
    if (name !== keep && (name.startsWith(CACHE_PREFIX) || (await isOurLegacyCache(name)))) ours.push(name);
  }
  await Promise.all(ours.map((name) => caches.delete(name)));
  return ours.length;
}

/**
 * Whether `name` is the offline copy a version before this one stored for this app at this base:
 * its name had no base in it (`<name>-<version>`, shared by every base), so the copy tells by what
 * it holds, this base's precache list. It is deleted only once this version's own copy is whole
 * (at activation): a person updating keeps an offline copy all along.
 */
async function isOurLegacyCache(name: string): Promise<boolean> {
  if (!isLegacyCacheName(name)) return false;
  const legacy = await caches.open(name);
  return (await legacy.match(MANIFEST_URL)) !== undefined;
}
