// `npm test` type-checks its programs in one process, parsing the files they share once, and keeps
// TypeScript's incremental state in the cache (tools/typecheck.mjs): a stored error stays until it
// is fixed, and an edit to one file brings back (or clears) the errors it causes in files that
// did not change.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { typecheckEach, typecheckProgram } from '../../tools/typecheck.mjs';

const test = suite('type check: shared files and the incremental cache');
let dir = '';
test.before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'typecheck-cache-'));
  const options = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['ES5'],
    module: 'ESNext',
    moduleResolution: 'Bundler',
  };
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, include: ['*.ts'] }));
  writeFileSync(path.join(dir, 'tsconfig.other.json'), JSON.stringify({ compilerOptions: options, files: ['user.ts'] }));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

const write = (file: string, text: string) => writeFileSync(path.join(dir, file), text);
const LENGTH_OF_NUMBER = 'export const lengthOf = (value: number): number => value;\n';
const LENGTH_OF_STRING = 'export const lengthOf = (value: string): number => value.length;\n';

test('a stored error stays until it is fixed; an edit to an imported file re-checks the files that import it', () => {
  const cacheDir = path.join(dir, 'cache');
  const check = () => typecheckProgram(dir, { config: 'tsconfig.json' }, { name: 'probe', cacheDir });
  write('lib.ts', LENGTH_OF_NUMBER);
  write('user.ts', "import { lengthOf } from './lib';\nexport const n: number = lengthOf('text');\n");
  const error = /^user\.ts:2:35: TS2345 /;
  const cold = check();
  assert.is(cold.length, 1, cold.join('\n'));
  assert.match(cold[0], error);
  assert.ok(existsSync(path.join(cacheDir, 'probe.tsbuildinfo')), 'the state is stored');
  const warm = check();
  assert.equal(warm, cold, 'the same error from the stored state');
  // Only lib.ts changes: user.ts's stored error must not be reused.
  write('lib.ts', LENGTH_OF_STRING);
  assert.equal(check(), [], 'user.ts checked again against the new lib.ts');
  write('lib.ts', LENGTH_OF_NUMBER);
  const back = check();
  assert.is(back.length, 1, 'the error is back');
  assert.match(back[0], error);
});

test('programs checked together, sharing their files and one cache, each report their own errors', () => {
  write('lib.ts', LENGTH_OF_NUMBER);
  write('user.ts', "import { lengthOf } from './lib';\nexport const n: number = lengthOf('text');\n");
  write('clean.ts', 'export const two: number = 2;\n');
  const programs = { all: { config: 'tsconfig.json' }, user: { config: 'tsconfig.other.json' }, clean: { config: 'tsconfig.clean.json' } };
  write('tsconfig.clean.json', JSON.stringify({ extends: './tsconfig.json', files: ['clean.ts'], include: [] }));
  const cacheDir = path.join(dir, 'shared-cache');
  for (const run of ['cold', 'warm']) {
    const results = typecheckEach(dir, Object.keys(programs), { cacheDir, programs });
    assert.equal(
      results.map(({ name, errors }) => ({ name, errors: errors.map((e) => e.replace(/ TS2345 .*/, ' TS2345')) })),
      [
        { name: 'all', errors: ['user.ts:2:35: TS2345'] },
        { name: 'user', errors: ['user.ts:2:35: TS2345'] },
        { name: 'clean', errors: [] },
      ],
      run,
    );
  }
});

test.run();
