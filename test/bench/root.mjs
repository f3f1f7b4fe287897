// Where the bench is: its own folder, and the checkout it measures (the one it sits in: a copy of
// the project measures the copy).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bench's own folder (test/bench/): its package.json, lock and node_modules. */
export const BENCH = path.dirname(fileURLToPath(import.meta.url));

/** The checkout this bench measures: the one it sits in (a copy of the project measures the copy). */
export const ROOT = path.resolve(BENCH, '..', '..');
