// The checkout the bench measures: the one it sits in (a copy of the project measures the copy).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout this bench measures: the one it sits in (a copy of the project measures the copy). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
