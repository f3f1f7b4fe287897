// vite-peer.mjs replaces its --out folder whole: it refuses, before building anything, a folder
// holding files it did not write (a command of ours never deletes what it did not write).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

test('a folder of files vite-peer did not build is refused in one line and left as it was', () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'vite-peer-foreign-'));
  try {
    writeFileSync(path.join(folder, 'index.html'), 'a site of mine');
    const run = spawnSync(process.execPath, ['test/bench/vite-peer.mjs', '--out', folder], { encoding: 'utf8' });
    assert.is(run.status, 1);
    assert.is(run.stderr.trim(), `vite-peer: ${folder} holds files vite-peer did not build; give --out an empty or new folder`);
    assert.equal(readdirSync(folder), ['index.html']);
    assert.is(readFileSync(path.join(folder, 'index.html'), 'utf8'), 'a site of mine');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test.run();
