// The bundle's composition (tools/pipeline/composition.mjs): inputs grouped by package and by the
// app's own folders, the bytes summed, esbuild's own bytes as the remainder.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { composition, groupOfInput, largestGroups } from '../../tools/pipeline/composition.mjs';

const test = suite('bundle composition');

const VERSIONS: Record<string, string> = { '../main/node_modules/react-dom': '19.0.0', '../main/node_modules/@scope/lib': '1.2.3' };
const versionOf = (dir: string) => VERSIONS[dir];

test('an input belongs to its npm package (scoped too), to its first two folders under src/, or to its plugin namespace', () => {
  assert.equal(groupOfInput('../main/node_modules/react-dom/cjs/react-dom-client.production.js'), {
    key: '../main/node_modules/react-dom',
    name: 'react-dom',
    own: false,
    module: 'cjs/react-dom-client.production.js',
    dir: '../main/node_modules/react-dom',
  });
  assert.is(groupOfInput('../main/node_modules/@scope/lib/index.js').name, '@scope/lib');
  assert.is(groupOfInput('node_modules/a/node_modules/b/x.js').name, 'b', 'a nested copy is its own package');
  assert.equal(groupOfInput('src/ui/screens/notes/Backup.tsx'), {
    key: 'src/ui',
    name: 'src/ui',
    own: true,
    module: 'src/ui/screens/notes/Backup.tsx',
  });
  assert.is(groupOfInput('src/main.tsx').name, 'src');
  assert.is(groupOfInput('sw.ts').name, '.');
  assert.equal(groupOfInput('app-screens:app:routes'), {
    key: 'app-screens',
    name: 'app-screens',
    own: true,
    module: 'app-screens:app:routes',
  });
});

const METAFILE = {
  inputs: {},
  outputs: {
    'out/assets/app-X.js': {
      bytes: 1000,
      inputs: {
        '../main/node_modules/react-dom/index.js': { bytesInOutput: 100 },
        '../main/node_modules/react-dom/cjs/client.js': { bytesInOutput: 500 },
        '../main/node_modules/@scope/lib/index.js': { bytesInOutput: 50 },
        '../main/node_modules/@scope/lib/unused.js': { bytesInOutput: 0 },
        'src/ui/App.tsx': { bytesInOutput: 200 },
        'src/reload/a.ts': { bytesInOutput: 60 },
        'src/reload/b.ts': { bytesInOutput: 60 },
      },
      imports: [],
      exports: [],
    },
    'out/assets/app-X.js.LEGAL.txt': { bytes: 10, inputs: {}, imports: [], exports: [] },
    'out/assets/app-Y.css': { bytes: 31, inputs: { 'src/ui/app.css': { bytesInOutput: 30 } }, imports: [], exports: [] },
  },
};

test('each shipped script and stylesheet: groups largest first with their modules, versions from the packages, the remainder is esbuild', () => {
  const document = composition({ metafile: METAFILE, outDir: 'out', build: 'react', versionOf });
  assert.equal(
    document.outputs.map((output) => output.path),
    ['assets/app-X.js', 'assets/app-Y.css'],
    'the legal side file is not shipped code',
  );
  const [script, style] = document.outputs;
  assert.equal(
    script.groups.map((group) => [group.name, group.version, group.own, group.bytes]),
    [
      ['react-dom', '19.0.0', false, 600],
      ['src/ui', null, true, 200],
      ['src/reload', null, true, 120],
      ['@scope/lib', '1.2.3', false, 50],
    ],
  );
  assert.equal(script.groups[0].modules, [
    { path: 'cjs/client.js', bytes: 500 },
    { path: 'index.js', bytes: 100 },
  ]);
  assert.equal(
    script.groups[2].modules.map((module) => module.path),
    ['src/reload/a.ts', 'src/reload/b.ts'],
    'ties by name',
  );
  assert.not.ok(
    script.groups.some((group) => group.modules.some((module) => module.bytes === 0)),
    'a module tree-shaken away is left out',
  );
  assert.is(script.esbuild, 1000 - 970);
  assert.is(script.bytes, script.esbuild + script.groups.reduce((total, group) => total + group.bytes, 0));
  assert.is(style.esbuild, 1);
});

test('the size table: the five largest (own code as one line), the rest summed, and esbuild', () => {
  const many = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`node_modules/p${i}/index.js`, { bytesInOutput: 10 * (i + 1) }]));
  const metafile = {
    inputs: {},
    outputs: {
      'out/app.js': {
        bytes: 400,
        inputs: { ...many, 'src/a.ts': { bytesInOutput: 35 }, 'src/ui/b.ts': { bytesInOutput: 30 } },
        imports: [],
        exports: [],
      },
    },
  };
  const groups = largestGroups(composition({ metafile, outDir: 'out', build: 'react', versionOf: () => '1.0.0' }));
  assert.equal(
    groups?.top.map((line) => line.name),
    ['p6 1.0.0', 'own code (src/)', 'p5 1.0.0', 'p4 1.0.0', 'p3 1.0.0'],
  );
  assert.equal(groups?.rest, { groups: 3, bytes: 30 + 20 + 10 });
  assert.is(groups?.esbuild, 400 - 280 - 65);
});

test.run();
