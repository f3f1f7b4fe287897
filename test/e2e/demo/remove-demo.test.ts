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

/** Runs remove-demo where it must refuse: exit 1, one line on stderr, nothing on stdout, nothing changed; returns the line. */
function refusedRemoval(copy: string): string {
  const before = snapshot(copy);
  const result = spawnSync(process.execPath, ['tools/remove-demo.mjs'], { cwd: copy, encoding: 'utf8' });
  assert.is(result.status, 1, result.stdout);
  assert.is(result.stdout, '');
  const lines = result.stderr.trim().split('\n');
  assert.is(lines.length, 1, result.stderr);
  assert.equal(snapshot(copy), before, 'nothing changed');
  return lines[0];
}

/** Builds the copy; fails with the build's line unless it exits 0. */
function builds(copy: string): void {
  const built = spawnSync(process.execPath, ['build.mjs', '--out', 'dist'], { cwd: copy, encoding: 'utf8' });
  assert.is(built.status, 0, built.stderr);
}

/** Edits a file of the copy. */
function edit(copy: string, file: string, change: (text: string) => string): void {
  writeFileSync(path.join(copy, file), change(readFileSync(path.join(copy, file), 'utf8')));
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
  assert.not.match(readme, 'src/notes/', 'no line points at the demo');
  assert.ok(lines.includes("wrote docs/testing.md: the demo's part"));
  const testingDoc = readFileSync(path.join(copy, 'docs/testing.md'), 'utf8');
  assert.not.match(testingDoc, /^src\/notes\/ /m, "the layout's line about the demo is gone");
  assert.match(testingDoc, /^src\/ui\/ /m, 'the rest of the layout stays');
  assert.ok(lines.includes("wrote src/ui/app.css: the demo's part"));
  const css = readFileSync(path.join(copy, 'src/ui/app.css'), 'utf8');
  assert.not.match(css, /\.notes\b|end notes/, "the demo's CSS is gone");
  assert.match(css, /^\.own \{/m, 'the rest of the CSS stays');
  assert.ok(lines.includes("wrote src/ui/later.ts: the demo's part"));
  const later = readFileSync(path.join(copy, 'src/ui/later.ts'), 'utf8');
  assert.not.match(later, 'screens/notes/', 'the chunk loaded on use no longer takes in the backup');
  assert.match(later, /^export \{ resumeAfterReload \}/m, 'the rest of it stays');
  for (const file of readdirSync(path.join(copy, 'src'), { recursive: true, encoding: 'utf8' }).filter((name) => /\.tsx?$/.test(name)))
    assert.not.match(readFileSync(path.join(copy, 'src', file), 'utf8'), 'src/notes/', `src/${file} points at the demo`);
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

test('a changed start call goes whole with its import (one line or several); the app builds', () => {
  for (const call of ['startNotes({ saveWithinMs: 500 });', 'startNotes({\n  saveWithinMs: 500,\n});']) {
    const copy = copyProject();
    edit(copy, 'src/main.tsx', (code) => code.replace(/^startNotes\(\);$/m, call));
    const lines = removeDemo(copy);
    assert.ok(lines.includes('wrote src/main.tsx: no longer starts the notes'), call);
    assert.not.match(readFileSync(path.join(copy, 'src/main.tsx'), 'utf8'), /notes|saveWithinMs/i, call);
    builds(copy);
  }
});

test('a use of the notes it cannot take out whole: refused in one line, nothing changed', () => {
  const copy = copyProject();
  edit(copy, 'src/main.tsx', (code) => code.replace(/^startNotes\(\);$/m, 'if (location.search !== "?no-notes") startNotes();'));
  assert.match(
    refusedRemoval(copy),
    /^remove-demo: nothing changed: src\/main\.tsx uses the notes where remove-demo cannot take them out whole \(near line \d+\): /,
  );
});

test('a changed Notes screen, which needs the notes store: refused in one line, nothing changed', () => {
  const copy = copyProject();
  edit(copy, 'src/ui/screens/index.tsx', (code) => `${code}// mine now\n`);
  assert.match(
    refusedRemoval(copy),
    /^remove-demo: nothing changed: src\/ui\/screens\/index\.tsx \(a demo file you changed, so it is kept\) imports src\/notes\/\w+\.ts, which is the demo's and would be deleted: delete src\/ui\/screens\/index\.tsx or make it import nothing of the demo, then run again$/,
  );
});

test("a builder's own screen that uses the notes store: refused, naming it", () => {
  const copy = copyProject();
  writeFileSync(
    path.join(copy, 'src/ui/screens/count.tsx'),
    "import { notes } from '../../notes/store';\nimport { useStore } from '../useStore';\n\nexport const title = 'Count';\nexport const navOrder = 90;\n\nexport default function Count() {\n  return <p>{useStore(notes).doc.notes.length}</p>;\n}\n",
  );
  assert.match(refusedRemoval(copy), /^remove-demo: nothing changed: src\/ui\/screens\/count\.tsx imports src\/notes\/store\.ts, /);
});

test('a checkout with CRLF line endings (Git for Windows): the demo is the same demo, removed; the files written keep CRLF', () => {
  const copy = copyProject();
  const text = readdirSync(copy, { recursive: true, encoding: 'utf8' }).filter(
    (file) => !file.startsWith('node_modules') && /\.(tsx?|css|md|mjs|json)$/.test(file),
  );
  for (const file of text) edit(copy, file, (code) => code.replace(/\r?\n/g, '\r\n'));
  const lines = removeDemo(copy);
  for (const file of candidateFiles(repo)) assert.ok(lines.includes(`removed ${file}`), `says it removed ${file}`);
  assert.not.ok(
    lines.some((line) => line.startsWith('kept ')),
    lines.join('\n'),
  );
  for (const file of ['src/main.tsx', 'README.md', 'src/ui/app.css', 'src/ui/screens/index.tsx']) {
    const written = readFileSync(path.join(copy, file), 'utf8');
    assert.not.match(written, /[^\r]\n/, `${file} keeps its CRLF endings`);
  }
  builds(copy);
});

test.run();
