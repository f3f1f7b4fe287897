// Our caches among the origin's: an origin such as *.github.io is shared with other apps, so the
// worker only ever deletes caches whose names carry our prefix.
import { CACHE_PREFIX } from '../app-name';

/** Deletes every cache of ours except `keep`; resolves to how many were deleted. */
export async function deleteOurCaches(keep?: string): Promise<number> {
  const names = await caches.keys();
  const ours = names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== keep);
  await Promise.all(ours.map((name) => caches.delete(name)));
  return ours.length;
}
