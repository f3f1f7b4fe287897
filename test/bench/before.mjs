// `--before REF`: the project as it was at a git commit, built beside today's so that the load part
// visits both in the same rounds (with the --compare site): each row's before and after, measured
// side by side on the same machine load rather than from numbers taken another day.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './root.mjs';

/**
 * The sources of commit `ref` in a new temporary folder, with this checkout's node_modules linked
 * in (the bench compares code, not dependencies); `remove()` deletes the folder.
 * @param {string} ref
 * @returns {{ root: string, commit: string, remove: () => void }}
 */
export function checkOutBefore(ref) {
  const resolved = spawnSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: ROOT, encoding: 'utf8' });
  if (resolved.status !== 0) throw new Error(`bench: --before ${ref} names no commit of this repository`);
  const commit = resolved.stdout.trim();
  const root = mkdtempSync(path.join(os.tmpdir(), 'offline-shell-bench-before-'));
  const remove = () => rmSync(root, { recursive: true, force: true });
  const archive = spawnSync('git', ['archive', '--format=tar', commit], { cwd: ROOT, maxBuffer: 1 << 30 });
  const extracted = archive.status === 0 && spawnSync('tar', ['-x', '-C', root], { input: archive.stdout }).status === 0;
  if (!extracted) {
    remove();
    throw new Error(`bench: could not extract commit ${commit} (git archive: ${archive.stderr?.toString().trim() || 'failed'})`);
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
  return { root, commit, remove };
}
