// The second app the shell's guarantees are proven on: a checklist (test/fixtures/checklist/) built
// from a copy of the project with the demo removed (npm run remove-demo), its new item's text in
// component state and its items stored through createDeviceDocument; type-checked as its builder
// would, and built three ways: this version, its kill switch and a new version. Read through any
// page that runs a function in itself (Chromium's Page, every engine's Tab).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeV2 } from '../../harness/test-sites.mjs';
import type { RunsInPage } from './driver';
import { copyProject } from './site';
import { sleep } from './wait';

/** The checklist app's project and its builds: this version, its kill switch, and a new version of it. */
export interface ChecklistApp {
  project: string;
  dist: string;
  kill: string;
  v2: string;
}

/** The label of the checklist's text field, and the id a restored caret is found by. */
export const NEW_ITEM = { label: 'New item', id: 'new-item' };

/** Runs a Node script in `cwd`; returns its output, or throws it when the script fails. */
function run(cwd: string, ...args: string[]): string {
  const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed in ${cwd}:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/**
 * Builds the checklist app (about 15 s) in `dest` (a temporary folder unless given): the shell without the demo, the fixture's screen and store
 * in, started in main.tsx; its kill switch and new version a second later than this version (python's
 * http.server answers a conditional GET with 304 when the file is not newer, to the second).
 */
export async function buildChecklistApp(dest?: string): Promise<ChecklistApp> {
  const project = copyProject(dest);
  // A demo file changed since tools/demo-files.json was recorded stays, and the app would not type-check.
  const kept = run(project, 'tools/remove-demo.mjs')
    .split('\n')
    .filter((line) => line.startsWith('kept '));
  if (kept.length)
    throw new Error(
      `remove-demo kept demo files changed since they were recorded (node tools/remove-demo.mjs --record):\n${kept.join('\n')}`,
    );
  const fixture = path.join(process.cwd(), 'test/fixtures/checklist');
  mkdirSync(path.join(project, 'src/checklist'));
  copyFileSync(path.join(fixture, 'store.ts'), path.join(project, 'src/checklist/store.ts'));
  copyFileSync(path.join(fixture, 'index.tsx'), path.join(project, 'src/ui/screens/index.tsx'));
  const main = path.join(project, 'src/main.tsx');
  // As a builder starts their stored data (README, "Add stored data"): beside the shell's starts.
  writeFileSync(
    main,
    readFileSync(main, 'utf8')
      .replace('import { startConnectivity }', "import { checklist } from './checklist/store';\nimport { startConnectivity }")
      .replace('startRouter();\n', 'startRouter();\nchecklist.start();\n'),
  );
  run(project, 'tools/typecheck.mjs', 'app');
  run(project, 'build.mjs', '--out', 'dist');
  await sleep(1000 - (Date.now() % 1000) + 50);
  run(project, 'build.mjs', '--kill-switch', '--out', 'dist-kill');
  makeV2(project);
  run(project, 'build.mjs', '--out', 'dist-v2');
  return { project, dist: path.join(project, 'dist'), kill: path.join(project, 'dist-kill'), v2: path.join(project, 'dist-v2') };
}

/** What the checklist screen shows: the new item's field, the component's own state line, the items. */
export interface ChecklistShown {
  field: string | null;
  state: string | null;
  items: (string | null)[];
}

/** Reads what the checklist screen shows. */
export const checklistOf = (page: RunsInPage): Promise<ChecklistShown> =>
  page.evaluate(
    () => ({
      field: (document.getElementById('new-item') as HTMLInputElement | null)?.value ?? null,
      state: document.querySelector('.draft-state')?.textContent ?? null,
      items: [...document.querySelectorAll('.checklist li')].map((item) => item.textContent),
    }),
    null,
  );

/** The checklist as it must be with `text` in its field and `items` stored: the component's state line says the same text. */
export const checklistWith = (text: string, items: string[] = []): ChecklistShown => ({ field: text, state: `next item: ${text}`, items });
