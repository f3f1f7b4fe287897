// A failing test never hangs `npm test`: a test file that runs past its time limit is stopped by
// test/harness/uvu-run.mjs, with a line naming the file, the suite and the test it was in, and a
// summary that counts it as failed, even when the test replaced the global setTimeout (as the
// unit DOM's fake clock does) and left nothing else running.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const test = suite('time limit of a test file');
const harness = path.join(process.cwd(), 'test', 'harness');
let dir = '';
test.before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'time-limit-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a test file whose second test never ends, and runs it through uvu-run.mjs with a 1 s limit. */
function runHangingFile() {
  const file = path.join(dir, 'hanging.test.mjs');
  writeFileSync(
    file,
    `import { suite } from ${JSON.stringify(pathToFileURL(path.join(harness, 'uvu-timed.mjs')).href)};
const test = suite('waiting suite');
test('finishes', () => {});
test('waits for an answer that never comes', () => {
  globalThis.setTimeout = () => 0;
  return new Promise(() => {});
});
test('never starts', () => {});
test.run();
`,
  );
  const started = performance.now();
  const result = spawnSync(process.execPath, [path.join(harness, 'uvu-run.mjs'), file], {
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', TEST_FILE_LIMIT_S: '1' },
    timeout: 30_000,
  });
  return { ...result, seconds: (performance.now() - started) / 1000 };
}

test('stops the file past its limit, naming the suite and the test, with the test counted as failed', () => {
  const { status, stdout, seconds } = runHangingFile();
  assert.is(status, 1);
  assert.ok(seconds < 10, `stopped after ${seconds.toFixed(1)} s`);
  assert.match(
    stdout,
    'TIME LIMIT hanging.test.mjs ran past 1 s: stopped in suite "waiting suite", "waits for an answer that never comes"',
  );
  assert.match(stdout, /Total:\s+1\n\s+Passed:\s+0/);
});

test.run();
