// The route table derived from src/ui/screens/ (tools/screens.mjs): what a screen file gives, and
// the one-line reason for each file that cannot be a screen.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listScreens, SCREENS_DIR } from '../../tools/screens.mjs';

const test = suite('screens from files');
let root: string;

/** A screen file's source: its title, its place in the navigation, a component. */
const screen = (title: string, navOrder: number) =>
  `export const title = ${JSON.stringify(title)};\nexport const navOrder = ${navOrder};\nexport default function Screen() {\n  return <p>{title}</p>;\n}\n`;

/** Writes files under the project's screens folder (a name with "/" makes its sub-folder). */
function write(files: Record<string, string>): void {
  for (const [name, source] of Object.entries(files)) {
    const file = path.join(root, SCREENS_DIR, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, source);
  }
}

/** The one-line reason listScreens() gives for the project as written. */
function reason(): string {
  try {
    listScreens(root);
  } catch (error) {
    assert.is((error as Error).name, 'BuildError', 'build.mjs prints the message alone');
    return (error as Error).message;
  }
  throw new Error('listScreens accepted the folder');
}

test.before.each(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'screens-test-'));
});
test.after.each(() => rmSync(root, { recursive: true, force: true }));

test("each top-level file is a route in navigation order; sub-folders are a screen's own parts", () => {
  write({
    'index.tsx': screen('Notes', 1),
    'field-notes.tsx': screen('Field notes: what\'s "new"', 3),
    'status.tsx': screen('Offline readiness', 2),
    'notes/Backup.tsx': 'export const x = 1;\n',
  });
  assert.equal(listScreens(root), [
    { name: 'index', path: '/', title: 'Notes', navOrder: 1, file: 'src/ui/screens/index.tsx' },
    { name: 'status', path: '/status/', title: 'Offline readiness', navOrder: 2, file: 'src/ui/screens/status.tsx' },
    {
      name: 'field-notes',
      path: '/field-notes/',
      title: 'Field notes: what\'s "new"',
      navOrder: 3,
      file: 'src/ui/screens/field-notes.tsx',
    },
  ]);
});

test('a title in single quotes with escapes, and a component re-exported from elsewhere', () => {
  write({
    'index.tsx':
      "export { Notes as default } from '../notes/Notes';\nexport const title = 'It\\'s \"mine\"';\nexport const navOrder = 1;\n",
  });
  assert.is(listScreens(root)[0].title, 'It\'s "mine"');
});

test("the app's own screens: one route per top-level .tsx file of src/ui/screens/ (index.tsx at /), lowest navOrder first", () => {
  const folder = path.join(process.cwd(), SCREENS_DIR);
  const files = readdirSync(folder).filter((name) => name.endsWith('.tsx'));
  const expected = files.map((name) => {
    const stem = name.slice(0, -'.tsx'.length);
    return {
      path: stem === 'index' ? '/' : `/${stem}/`,
      navOrder: Number(/export const navOrder = (\d+)/.exec(readFileSync(path.join(folder, name), 'utf8'))?.[1]),
    };
  });
  expected.sort((a, b) => a.navOrder - b.navOrder);
  assert.ok(files.includes('index.tsx'), 'the app has a home screen');
  assert.equal(
    listScreens(process.cwd()).map((s) => s.path),
    expected.map((screen) => screen.path),
  );
});

const refused: [string, Record<string, string>, string][] = [
  [
    'a screen without a title',
    { 'index.tsx': screen('Notes', 1), 'help.tsx': 'export const navOrder = 2;\nexport default function Help() {}\n' },
    "src/ui/screens/help.tsx has no title: add `export const title = 'Its title';` (a plain string; it is the <h1>, the nav link and the page title)",
  ],
  [
    'a title that is not a plain string',
    { 'index.tsx': 'export const title = `Notes`;\nexport const navOrder = 1;\nexport default function N() {}\n' },
    "src/ui/screens/index.tsx has no title: add `export const title = 'Its title';` (a plain string; it is the <h1>, the nav link and the page title)",
  ],
  ['an empty title', { 'index.tsx': screen(' ', 1) }, 'src/ui/screens/index.tsx: its title must be a non-empty plain string literal'],
  [
    'a screen without navOrder',
    { 'index.tsx': "export const title = 'Notes';\nexport default function N() {}\n" },
    'src/ui/screens/index.tsx has no place in the navigation: add `export const navOrder = 1;` (a whole number, lowest first)',
  ],
  [
    'a screen without a component',
    { 'index.tsx': "export const title = 'Notes';\nexport const navOrder = 1;\nexport function Notes() {}\n" },
    'src/ui/screens/index.tsx has no component: export it as the default (`export default function …`)',
  ],
  [
    'a name that is not a URL segment',
    { 'index.tsx': screen('Notes', 1), 'Field_Notes.tsx': screen('Field notes', 2) },
    'src/ui/screens/Field_Notes.tsx: a screen\'s file name is its URL, so it must be lowercase letters and digits joined by "-" (for example field-notes.tsx)',
  ],
  [
    'a name dist/ already uses',
    { 'index.tsx': screen('Notes', 1), 'assets.tsx': screen('Assets', 2) },
    'src/ui/screens/assets.tsx: "assets" is taken (dist/assets/ holds other files); choose another name',
  ],
  [
    "the not-found page's name",
    { 'index.tsx': screen('Notes', 1), '404.tsx': screen('Lost', 2) },
    'src/ui/screens/404.tsx: "404" is taken (the not-found page); choose another name',
  ],
  [
    'a file that is not a .tsx screen',
    { 'index.tsx': screen('Notes', 1), 'helpers.ts': 'export const x = 1;\n' },
    "src/ui/screens/helpers.ts is not a screen: only .tsx files go in src/ui/screens/ (a screen's own parts go in a sub-folder)",
  ],
  [
    'a duplicate title',
    { 'index.tsx': screen('Notes', 1), 'more.tsx': screen('Notes', 2) },
    'src/ui/screens/more.tsx: title "Notes" is also src/ui/screens/index.tsx\'s; each screen needs its own',
  ],
  [
    'a duplicate navOrder',
    { 'index.tsx': screen('Notes', 1), 'more.tsx': screen('More', 1) },
    "src/ui/screens/more.tsx: navOrder 1 is also src/ui/screens/index.tsx's; each screen needs its own",
  ],
  ['no index.tsx', { 'about.tsx': screen('About', 1) }, 'src/ui/screens/index.tsx is missing: it is the screen at /'],
];
for (const [what, files, message] of refused) {
  test(`refuses ${what} with one line naming the file`, () => {
    write(files);
    assert.is(reason(), message);
  });
}

test('refuses a project without the folder', () => {
  assert.is(reason(), 'missing src/ui/screens/ (one .tsx file per screen, index.tsx for /)');
});

test("a static/ folder's name is taken: its files share dist/ with the screens' folders", () => {
  mkdirSync(path.join(root, 'static/icons'), { recursive: true });
  write({ 'index.tsx': screen('Notes', 1), 'icons.tsx': screen('Icons', 2) });
  assert.is(reason(), 'src/ui/screens/icons.tsx: "icons" is taken (dist/icons/ holds other files); choose another name');
});

test.run();
