// Runs bundled uvu test files in one process, as `uvu` does, so their counts add up in one summary.
// Usage: node test/harness/uvu-run.mjs file.mjs [...]
import { pathToFileURL } from 'node:url';
import path from 'node:path';

/** uvu's globals for running several files as one: defer the run, and a queue of suites per file. */
const uvuGlobals = /** @type {typeof globalThis & { UVU_DEFER: number, UVU_INDEX: number, UVU_QUEUE: string[][] }} */ (globalThis);
uvuGlobals.UVU_DEFER = 1;
const uvu = await import('uvu');
let index = 0;
for (const file of process.argv.slice(2)) {
  uvuGlobals.UVU_INDEX = index++;
  uvuGlobals.UVU_QUEUE.push([path.basename(file)]);
  await import(pathToFileURL(path.resolve(file)).href);
}
await uvu.exec(false);
// A test that failed midway may leave a browser or server open; the results are in, so exit now.
process.exit(process.exitCode ?? 0);
