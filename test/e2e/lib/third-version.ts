// A third version of the app, for races between two updates: built from a copy of the project with
// its page title ending in " v3" (the test sites have v1 and v2 only).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { copySources } from './site';

/** Builds v3 (React, or Preact with `preact`); returns its dist/. */
export function buildV3(preact: boolean): string {
  const project = copySources();
  const template = path.join(project, 'static', 'index.html');
  writeFileSync(template, readFileSync(template, 'utf8').replace('%TITLE%', '%TITLE% v3'));
  const out = path.join(project, 'dist');
  const built = spawnSync(process.execPath, ['build.mjs', '--out', out, ...(preact ? ['--preact'] : [])], {
    cwd: project,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`v3 did not build: ${built.stderr}`);
  return out;
}
