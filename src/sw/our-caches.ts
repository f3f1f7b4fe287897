// Our caches among the origin's: an origin such as *.github.io is shared with other apps, and
// with other copies of this one at other bases, so the worker only ever deletes caches of this
// app at this base (src/contract/app-name.ts), and those a migration counts as ours (src/migrations/worker.ts).
import { CACHE_PREFIX } from '../contract/app-name';

/** Whether a cache not named with our prefix is ours all the same: none, unless a migration says. */
let alsoOurs: (name: string) => boolean | Promise<boolean> = () => false;

/** Makes deleteOurCaches() delete the caches `isOurs` tells too (the offline copies earlier releases named otherwise). */
export function countAsOurs(isOurs: (name: string) => Promise<boolean>): void {
  alsoOurs = isOurs;
}

/** Deletes every cache of ours except `keep`; resolves to how many were deleted. */
export async function deleteOurCaches(keep?: string): Promise<number> {
  const ours: string[] = [];
  for (const name of await caches.keys()) {
    if (name !== keep && (name.startsWith(CACHE_PREFIX) || (await alsoOurs(name)))) ours.push(name);
  }
  await Promise.all(ours.map((name) => caches.delete(name)));
  return ours.length;
}
