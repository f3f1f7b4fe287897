// `npm run remove-demo` in a copy of the project: the demo's files go (only as the demo shipped
// them), a minimal home screen takes the Notes screen's place, the app still builds with every
// screen it has left; a second run changes nothing and says so in one line; a demo file the
// builder changed is kept and named. And demo-files.json records the demo as this checkout has it.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { candidateFiles, HOME_SCREEN, RECORD } from '../../../tools/remove-demo.mjs';
import { listScreens } from '../../../tools/screens.mjs';
import { cleanup, copyProject, readPrecache } from '../lib/site';

const repo = process.cwd();
const recorded: Record<string, string[]> = JSON.parse(readFileSync(path.join(repo, RECORD), 'utf8'));

/** Runs `npm run remove-demo` as its script does, in `copy`; returns its output lines. */
function removeDemo(copy: string): string[] {
  const result = spawnSync(process.execPath, ['tools/remove-demo.mjs'], { cwd: copy, encoding: 'utf8' });
  assert.is(result.status, 0, result.stderr);
  return result.stdout.trim().split('\n');
}

/** Every file of the copy but node_modules, with its SHA-256: what a run changed. */
function snapshot(copy: string): Record<string, string> {
  const files = readdirSync(copy, { recursive: true, withFileTypes: true }).filter(
    (entry) => entry.isFile() && !path.relative(copy, entry.parentPath).startsWith('node_modules'),
  );
  return Object.fromEntries(
    files.map((entry) => {
      const full = path.join(entry.parentPath, entry.name);
      return [path.relative(copy, full), createHash('sha256').update(readFileSync(full)).digest('hex')];
    }),
  );
}

const test = suite('npm run remove-demo');
test.after(cleanup);

test('demo-files.json records the demo files of this checkout, byte for byte (after changing the demo: node tools/remove-demo.mjs --record adds them)', () => {
  const demo = candidateFiles(repo);
  assert.ok(demo.includes('src/notes/store.ts') && demo.includes('src/ui/screens/index.tsx'), 'the notes store and screen are the demo');
  for (const file of demo) {
    const hash = createHash('sha256')
      .update(readFileSync(path.join(repo, file)))
      .digest('hex');
    assert.ok(recorded[file]?.includes(hash), `${file} as recorded`);
  }
});

test('removes the demo and says what it removed; the app builds with a home screen and the screens it has left', () => {
  const copy = copyProject();
  const lines = removeDemo(copy);
  for (const file of candidateFiles(repo)) {
    assert.ok(lines.includes(`removed ${file}`), `says it removed ${file}`);
    if (file !== 'src/ui/screens/index.tsx') assert.not.ok(existsSync(path.join(copy, file)), `${file} is gone`);
  }
  assert.not.ok(existsSync(path.join(copy, 'src/notes')), 'src/notes/ is gone');
  assert.is(readFileSync(path.join(copy, 'src/ui/screens/index.tsx'), 'utf8'), HOME_SCREEN);
  assert.not.match(readFileSync(path.join(copy, 'src/main.tsx'), 'utf8'), 'notes');
  const readme = readFileSync(path.join(copy, 'README.md'), 'utf8');
  assert.ok(lines.includes("wrote README.md: the demo's part"));
  assert.not.match(readme, '**Notes**');
  assert.not.match(readme, 'When the browser deletes your data');
  assert.match(readme, '## The screens', 'the rest of the README stays');
  const built = spawnSync(process.execPath, ['build.mjs', '--out', 'dist'], { cwd: copy, encoding: 'utf8' });
  assert.is(built.status, 0, built.stderr);
  const screens = listScreens(copy);
  assert.equal(
    Object.keys(readPrecache(path.join(copy, 'dist')))
      .filter((url) => screens.some((screen) => screen.path === url))
      .sort(),
    screens.map((screen) => screen.path).sort(),
    'every screen left is precached',
  );
  assert.match(readFileSync(path.join(copy, 'dist/index.html'), 'utf8'), />Home<\/h1>/);

  const before = snapshot(copy);
  assert.equal(removeDemo(copy), ['remove-demo: nothing to do, the demo is already removed']);
  assert.equal(snapshot(copy), before, 'the second run changed nothing');
});

test('keeps a demo file the builder changed, and names it', () => {
  const copy = copyProject();
  const changed = path.join(copy, 'src/notes/model.ts');
  writeFileSync(changed, readFileSync(changed, 'utf8') + '// mine now\n');
  const lines = removeDemo(copy);
  assert.ok(existsSync(changed), 'the changed file is still there');
  assert.ok(lines.some((line) => line.startsWith('kept src/notes/model.ts: changed since the demo shipped it')));
  assert.not.ok(existsSync(path.join(copy, 'src/notes/store.ts')), 'the unchanged ones are removed');
  assert.match(
    removeDemo(copy).join('\n'),
    /^remove-demo: nothing to do, the demo is already removed \(kept, changed by you: src\/notes\/model\.ts\)$/,
  );
});

test("keeps the README's demo section the builder changed, and names it; the rest of the demo's README goes", () => {
  const copy = copyProject();
  const readme = path.join(copy, 'README.md');
  const mine = 'Browsers evict, so my app has an export button.';
  writeFileSync(readme, readFileSync(readme, 'utf8').replace('## When the browser deletes your data\n\n', `$&${mine}\n\n`));
  const lines = removeDemo(copy);
  assert.ok(lines.some((line) => line.startsWith('kept README.md#when-the-browser-deletes-your-data: changed since the demo shipped it')));
  const left = readFileSync(readme, 'utf8');
  assert.match(left, `## When the browser deletes your data\n\n${mine}`, 'the section as the builder left it');
  assert.not.match(left, '**Notes**', "the Notes screen's line, as the demo shipped it, is gone");
});

test.run();
