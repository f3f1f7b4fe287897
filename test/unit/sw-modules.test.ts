// Every module of the worker runs in the in-process tests (sw-install, sw-serve, sw-stall): they run
// sw.js as the build makes it from sw.ts, and the kill switch's sw.js from src/sw/kill-switch.ts
// (lib/worker-under-test.ts). A module of src/sw/ that neither entry bundles would be tested by no
// unit test at all; this names it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = process.cwd();

/** The project's files that esbuild bundles for `entry`, relative to the project. */
async function bundledSources(entry: string): Promise<string[]> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'iife',
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs).map((input) => path.relative(root, path.resolve(root, input)));
}

test('every module of src/sw/ is bundled into a worker the in-process tests run', async () => {
  const bundled = new Set([...(await bundledSources('sw.ts')), ...(await bundledSources('src/sw/kill-switch.ts'))]);
  const modules = readdirSync(path.join(root, 'src/sw')).map((name) => `src/sw/${name}`);
  assert.ok(modules.length > 5, 'src/sw/ is read');
  assert.equal(
    modules.filter((module) => !bundled.has(module)),
    [],
    'modules of src/sw/ that no worker bundles',
  );
});

test('the in-process tests run both workers: the version as it ships and its kill switch', () => {
  const tests = ['sw-install', 'sw-serve', 'sw-stall'].map((name) => readFileSync(path.join(root, `test/unit/${name}.test.ts`), 'utf8'));
  assert.ok(
    tests.some((text) => text.includes('buildWorker(')),
    'a test builds the shipped worker',
  );
  assert.ok(
    tests.some((text) => /killSwitch: true/.test(text)),
    'a test builds the kill switch',
  );
});

test.run();
