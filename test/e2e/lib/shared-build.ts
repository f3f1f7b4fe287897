// A build that several test processes of one run need (the checklist app and the big app, one
// process per engine) is made once: the first process to ask builds it into the run's shared
// folder (E2E_SHARED, made and removed by the runner) while the others wait for it. Run without
// the runner (a test file by hand), each process builds its own, in a temporary folder.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { temp } from './site';
import { until } from './wait';

/** What the building process leaves for the others: the build's result, or why it failed. */
type Outcome<T> = { value: T } | { error: string };

/** How long a process waits for another's build: the checklist app takes about 15 s alone, far more beside two browsers. */
const BUILD_LIMIT_MS = 180_000;

/**
 * The result of `build(dir)`, made once per run under `name`: `dir` is a folder that outlives the
 * process that builds in it, for the whole run.
 */
export async function sharedBuild<T>(name: string, build: (dir: string) => Promise<T> | T): Promise<T> {
  const shared = process.env.E2E_SHARED;
  if (!shared) return build(temp());
  const dir = path.join(shared, name);
  const outcomeFile = path.join(shared, `${name}.json`);
  try {
    // Creating a folder is atomic: exactly one process of the run gets to build.
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const outcome = await until(`${name}, which another test process builds`, () => existsSync(outcomeFile), BUILD_LIMIT_MS).then(
      () => JSON.parse(readFileSync(outcomeFile, 'utf8')) as Outcome<T>,
    );
    if ('error' in outcome) throw new Error(`${name} did not build (in another test process): ${outcome.error}`);
    return outcome.value;
  }
  let outcome: Outcome<T>;
  try {
    outcome = { value: await build(dir) };
  } catch (error) {
    outcome = { error: (error as Error).message };
  }
  // Written whole, then renamed into place: a waiting process never reads half of it.
  writeFileSync(`${outcomeFile}.part`, JSON.stringify(outcome));
  renameSync(`${outcomeFile}.part`, outcomeFile);
  if ('error' in outcome) throw new Error(outcome.error);
  return outcome.value;
}
