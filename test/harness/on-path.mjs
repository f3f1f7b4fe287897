// Where a command is on PATH, for the tools that check what the machine has (the engine runs,
// npm test's setup) without running the command.
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/**
 * Finds an executable command on PATH; returns its full path, or null when it is not there.
 * @param {string} command
 * @returns {string | null}
 */
export function onPath(command) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return null;
}
