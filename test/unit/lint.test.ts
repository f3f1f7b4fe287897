// The lint suite catches what it is for: the project's biome.json (with its .gitignore, which the
// config reads) passes a real source file as committed, and fails it, naming the file, once a
// misformatted line with `==` is added. Biome is run as `npm test -- lint` runs it.
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = process.cwd();
const BIOME = path.join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');

/** `biome check .` in `dir`: its exit code and its report. */
function biomeCheck(dir: string): { code: number | null; out: string } {
  const result = spawnSync(process.execPath, [BIOME, 'check', '--colors=off', '.'], { cwd: dir, encoding: 'utf8' });
  return { code: result.status, out: result.stdout + result.stderr };
}

test('biome check passes a committed source file, and fails it, naming it, with a double-quoted == line added', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'offline-shell-lint-'));
  try {
    copyFileSync(path.join(root, 'biome.json'), path.join(dir, 'biome.json'));
    copyFileSync(path.join(root, '.gitignore'), path.join(dir, '.gitignore'));
    mkdirSync(path.join(dir, 'src'));
    // A file of the shell's own core, which stays when the demo is removed.
    const file = path.join(dir, 'src', 'device-document.ts');
    copyFileSync(path.join(root, 'src', 'stored-data', 'device-document.ts'), file);
    const clean = biomeCheck(dir);
    assert.is(clean.code, 0, clean.out);

    appendFileSync(file, 'export const isOne = (value: unknown) => value == "1";\n');
    const dirty = biomeCheck(dir);
    assert.is.not(dirty.code, 0, 'a misformatted line fails the check');
    assert.match(dirty.out, /src\/device-document\.ts format/, 'the report names the misformatted file');
    assert.match(dirty.out, /src\/device-document\.ts:\d+:\d+ lint\/suspicious\/noDoubleEquals/, 'and the line with ==');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
