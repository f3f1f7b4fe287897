// The compare command's pure parts (tools/compare/): two builds' files, modules and packages diffed,
// and the report in both formats.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { diffBuilds, stableName, unchanged } from '../../tools/compare/diff.mjs';
import type { Build } from '../../tools/compare/read-build.mjs';
import { markdownReport, signed, textReport } from '../../tools/compare/report.mjs';

const test = suite('compare builds');

const file = (path: string, bytes: number, sha384 = `sha384-${path}-${bytes}`) => ({ path, bytes, gzip: Math.round(bytes / 3), sha384 });

/** A build with the given files, script modules and packages. */
function build(
  version: string,
  files: ReturnType<typeof file>[],
  modules: Record<string, Record<string, number>>,
  packages: Build['packages'],
): Build {
  const groups = Object.entries(modules).map(([name, inGroup]) => ({
    name,
    version: name.startsWith('src') ? null : '1.0.0',
    own: name.startsWith('src'),
    bytes: Object.values(inGroup).reduce((total, bytes) => total + bytes, 0),
    modules: Object.entries(inGroup).map(([path, bytes]) => ({ path, bytes })),
  }));
  const [script] = files; // each build here lists its script first
  return {
    dir: version,
    audit: { name: 'offline-shell', version, build: 'react', files },
    composition: { build: 'react', outputs: [{ path: script.path, bytes: script.bytes, esbuild: 0, groups }] },
    packages,
  };
}

const OLD = build(
  'aaaaaaaaaaaa',
  [file('assets/app-AAAAAAAA.js', 1000), file('index.html', 100), file('old.txt', 10)],
  { react: { 'index.js': 600 }, 'src/ui': { 'src/ui/App.tsx': 300, 'src/ui/gone.ts': 100 } },
  [
    { name: 'react', version: '1.0.0', licences: ['MIT'] },
    { name: 'left-pad', version: '1.0.0', licences: ['WTFPL'] },
  ],
);
const NEW = build(
  'bbbbbbbbbbbb',
  [file('assets/app-BBBBBBBB.js', 1150), file('index.html', 100), file('new.txt', 20)],
  { react: { 'index.js': 600 }, 'src/ui': { 'src/ui/App.tsx': 350, 'src/ui/new.ts': 200 } },
  [
    { name: 'react', version: '1.1.0', licences: ['Apache-2.0'] },
    { name: 'preact', version: '11.0.0', licences: ['MIT'] },
  ],
);

test('a hashed name is one file across versions', () => {
  assert.is(stableName('assets/app-FEJ43LLF.js'), 'assets/app-*.js');
  assert.is(stableName('assets/app-Y2JLSI5E.css'), 'assets/app-*.css');
  assert.is(stableName('icons/icon-192.png'), 'icons/icon-192.png');
});

test('files added, removed and changed with raw and gzip deltas; modules by package; packages by version and licence', () => {
  const diff = diffBuilds(OLD, NEW);
  assert.equal(diff.version, { old: 'aaaaaaaaaaaa', new: 'bbbbbbbbbbbb' });
  assert.equal(
    diff.files.added.map((f) => f.path),
    ['new.txt'],
  );
  assert.equal(
    diff.files.removed.map((f) => f.path),
    ['old.txt'],
  );
  assert.equal(diff.files.changed, [
    { path: 'assets/app-BBBBBBBB.js', oldPath: 'assets/app-AAAAAAAA.js', bytes: 1150, gzip: 383, deltaBytes: 150, deltaGzip: 50 },
  ]);
  assert.equal(diff.modules, [
    {
      output: 'assets/app-*.js',
      groups: [
        {
          group: 'src/ui',
          own: true,
          added: [{ path: 'src/ui/new.ts', oldBytes: 0, newBytes: 200 }],
          removed: [{ path: 'src/ui/gone.ts', oldBytes: 100, newBytes: 0 }],
          resized: [{ path: 'src/ui/App.tsx', oldBytes: 300, newBytes: 350 }],
        },
      ],
    },
  ]);
  assert.equal(
    diff.packages.map((change) => [change.name, change.old?.version ?? null, change.new?.version ?? null]),
    [
      ['left-pad', '1.0.0', null],
      ['preact', null, '11.0.0'],
      ['react', '1.0.0', '1.1.0'],
    ],
  );
  assert.not.ok(unchanged(diff));
  const text = textReport(diff);
  assert.match(text, 'changed assets/app-AAAAAAAA.js -> assets/app-BBBBBBBB.js: +150 B raw, +50 B gzip');
  assert.match(text, 'src/ui (our code): src/ui/App.tsx grew +50 B');
  assert.match(text, 'react: 1.0.0 -> 1.1.0, licence MIT -> Apache-2.0');
  assert.match(markdownReport(diff), /^## offline-shell: version aaaaaaaaaaaa -> bbbbbbbbbbbb/);
});

test('the same build twice: no change; a build without bundle.json: modules unknown', () => {
  const same = diffBuilds(OLD, OLD);
  assert.ok(unchanged(same));
  assert.match(textReport(same), 'No change');
  const withoutComposition = diffBuilds({ ...OLD, composition: null }, NEW);
  assert.is(withoutComposition.modules, null);
  assert.match(textReport(withoutComposition), 'Modules: unknown');
});

test('signed byte counts', () => {
  assert.equal([signed(1234), signed(-5), signed(0)], ['+1,234 B', '-5 B', '±0 B']);
});

test.run();
