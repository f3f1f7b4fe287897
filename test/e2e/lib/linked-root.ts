// A host's root as a symlink: a deploy is an atomic swap of the link (python and nginx serve it).
import { renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { temp } from './site';

/** A folder `site` linking to `dir`, and setRoot() swapping the link atomically: a deploy. */
export function linkedRoot(dir: string): { link: string; setRoot(next: string): Promise<void> } {
  const base = temp();
  const link = path.join(base, 'site');
  symlinkSync(path.resolve(dir), link);
  return {
    link,
    async setRoot(next) {
      const swap = path.join(base, `site-${Date.now()}`);
      symlinkSync(path.resolve(next), swap);
      renameSync(swap, link);
    },
  };
}
