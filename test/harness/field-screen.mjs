// The screen the shell's guarantee tests type into, found from the app itself: the first screen,
// in navigation order, whose code draws a text field (a <textarea>, an <input> of a text type or
// none, a contentEditable). An app with no text field on any screen (a fresh one after
// `npm run remove-demo`) gets the fixture screens of test/fixtures/screens/ in its test sites, so
// every guarantee about typed text is still proven; the fixtures are never shipped.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listScreens, SCREENS_DIR } from '../../tools/screens.mjs';

/** @typedef {import('../../tools/screens.mjs').Screen} Screen */

/** The screens the test sites add when the app has no text field (a builder's message form). */
export const FIXTURE_SCREENS = 'test/fixtures/screens';

/** A text field in JSX: a textarea, a contentEditable, or an input whose type (if written first) is a text type. */
const TEXT_FIELD = /<textarea\b|\bcontentEditable\b|<input\b(?![^>]*?\btype=["'](?!text|search|email|url|tel)[a-z-]+["'])/;

/** Relative imports of a module: `from './x'` and `import './x'`. */
const RELATIVE_IMPORT = /\bfrom\s+["'](\.{1,2}\/[^"']+)["']|\bimport\s+["'](\.{1,2}\/[^"']+)["']/g;

/**
 * Whether the module `file` or a module it imports (relative imports, within the screens folder)
 * draws a text field.
 * @param {string} root
 * @param {string} file path from `root`
 * @param {Set<string>} [seen]
 * @returns {boolean}
 */
function drawsTextField(root, file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  const code = readFileSync(path.join(root, file), 'utf8');
  if (TEXT_FIELD.test(code)) return true;
  for (const match of code.matchAll(RELATIVE_IMPORT)) {
    const imported = resolveModule(root, path.posix.join(path.posix.dirname(file), match[1] ?? match[2]));
    if (imported?.startsWith(`${SCREENS_DIR}/`) && drawsTextField(root, imported, seen)) return true;
  }
  return false;
}

/**
 * The file an import without its extension names, from `root`, or undefined.
 * @param {string} root
 * @param {string} specifier
 */
function resolveModule(root, specifier) {
  const candidates = [specifier, `${specifier}.tsx`, `${specifier}.ts`, `${specifier}/index.tsx`, `${specifier}/index.ts`];
  return candidates.find((candidate) => /\.tsx?$/.test(candidate) && existsSync(path.join(root, candidate)));
}

/**
 * The first screen of the app at `root`, in navigation order, with a text field; undefined for an app without one.
 * @param {string} root
 */
export function fieldScreenOf(root) {
  return listScreens(root).find((screen) => drawsTextField(root, screen.file));
}

/**
 * Whether the test sites of the app at `root` need the fixture screens: it has no text field.
 * @param {string} root
 */
export const needsFixtureScreens = (root) => fieldScreenOf(root) === undefined;

/**
 * One fixture screen as the test sites add it: its file in FIXTURE_SCREENS, and the name (its
 * URL), title and navOrder it takes in the app.
 * @typedef {{ source: string, name: string, path: string, title: string, navOrder: number }} PlacedFixture
 */

// A screen's title and navOrder lines, as tools/screens.mjs reads them.
const TITLE_LINE = /^export const title(?:: string)? = .*$/m;
const NAV_ORDER_LINE = /^export const navOrder(?:: number)? = .*$/m;

/**
 * The first of `wanted`, `wanted-2`, `wanted-3`, … (or with `join` " (2)") that `taken` lacks.
 * @param {string} wanted
 * @param {Set<string>} taken
 * @param {string} join
 */
function freeOf(wanted, taken, join) {
  let candidate = wanted;
  for (let n = 2; taken.has(candidate); n++) candidate = join === '-' ? `${wanted}-${n}` : `${wanted} (${n})`;
  taken.add(candidate);
  return candidate;
}

/**
 * The fixture screens (FIXTURE_SCREENS/*.tsx) as the test sites add them to the app at `root`:
 * each keeps its own name, title and navOrder unless an app screen has it; then it takes one no app
 * screen has (`message-2`, "Message (2)", a navOrder after the app's last), so a builder's own
 * "Message" screen never breaks the tests.
 * @param {string} root
 * @returns {PlacedFixture[]}
 */
export function placedFixtures(root) {
  const own = listScreens(root);
  const names = new Set(own.map((screen) => screen.name));
  const titles = new Set(own.map((screen) => screen.title));
  const orders = new Set(own.map((screen) => screen.navOrder));
  let nextOrder = Math.max(0, ...own.map((screen) => screen.navOrder)) + 1;
  const fixtures = readdirSync(path.join(root, FIXTURE_SCREENS))
    .filter((file) => file.endsWith('.tsx'))
    .sort()
    .map((file) => {
      const source = readFileSync(path.join(root, FIXTURE_SCREENS, file), 'utf8');
      // Our own fixtures: a plain quoted title and a navOrder in digits.
      const title = /^export const title = ['"]([^'"]+)['"];?$/m.exec(source)?.[1];
      const navOrder = /^export const navOrder = (\d+);?$/m.exec(source)?.[1];
      if (!title || !navOrder) throw new Error(`${FIXTURE_SCREENS}/${file}: a fixture screen needs a plain title and a navOrder`);
      return { name: file.slice(0, -'.tsx'.length), title, navOrder: Number(navOrder) };
    });
  return fixtures.map((fixture) => {
    const name = freeOf(fixture.name, names, '-');
    const title = freeOf(fixture.title, titles, ' ');
    let navOrder = fixture.navOrder;
    if (orders.has(navOrder)) navOrder = nextOrder++;
    orders.add(navOrder);
    return { source: `${fixture.name}.tsx`, name, path: name === 'index' ? '/' : `/${name}/`, title, navOrder };
  });
}

/**
 * Adds the fixture screens to the screens of the copy at `dir` of the app at `root`, each under the
 * name, title and navOrder placedFixtures() gives it; their sub-folders (a screen's parts) as they are.
 * @param {string} root
 * @param {string} dir
 */
export function addFixtureScreens(root, dir) {
  const from = path.join(root, FIXTURE_SCREENS);
  const to = path.join(dir, SCREENS_DIR);
  for (const entry of readdirSync(from, { withFileTypes: true }))
    if (entry.isDirectory()) cpSync(path.join(from, entry.name), path.join(to, entry.name), { recursive: true });
  for (const fixture of placedFixtures(root)) {
    const source = readFileSync(path.join(from, fixture.source), 'utf8');
    const placed = source
      .replace(TITLE_LINE, `export const title = ${JSON.stringify(fixture.title)};`)
      .replace(NAV_ORDER_LINE, `export const navOrder = ${fixture.navOrder};`);
    writeFileSync(path.join(to, `${fixture.name}.tsx`), placed);
  }
}

/**
 * The app's screens and the fixture screens together, in navigation order (listScreens() of the
 * two folders copied into one, so a clash between them is the build's one-line error too).
 * @param {string} root
 */
function screensWithFixtures(root) {
  const together = mkdtempSync(path.join(os.tmpdir(), 'test-site-screens-'));
  try {
    cpSync(path.join(root, SCREENS_DIR), path.join(together, SCREENS_DIR), { recursive: true });
    addFixtureScreens(root, together);
    return listScreens(together);
  } finally {
    rmSync(together, { recursive: true, force: true });
  }
}

/**
 * What the tests of the app at `root` run on: its own screens; the test sites' screens, in
 * navigation order (the fixture screens added when the app has no text field); and the screen the
 * guarantee tests type into (the app's first with a text field, else the first fixture screen).
 * @param {string} root
 * @returns {{ own: Screen[], screens: Screen[], fieldScreen: Screen, fixturesAdded: boolean }}
 */
export function screensUnderTest(root) {
  const own = listScreens(root);
  const ownFieldScreen = own.find((screen) => drawsTextField(root, screen.file));
  if (ownFieldScreen) return { own, screens: own, fieldScreen: ownFieldScreen, fixturesAdded: false };
  const screens = screensWithFixtures(root);
  const fixture = screens.find((screen) => !own.some((ownScreen) => ownScreen.file === screen.file));
  if (!fixture) throw new Error(`${FIXTURE_SCREENS}/ has no screen: the guarantee tests need a text field to type into`);
  return { own, screens, fieldScreen: fixture, fixturesAdded: true };
}

/**
 * One line for the test output: the screens the shell's guarantees run on, and where they type.
 * @param {string} root
 */
export function describeTestScreens(root) {
  const { own, fieldScreen, fixturesAdded } = screensUnderTest(root);
  const where = `${fieldScreen.path} (${fieldScreen.title})`;
  const typing = fixturesAdded
    ? `no screen of the app has a text field, so the test sites add ${FIXTURE_SCREENS}/ and the guarantees about typing use its first field, on ${where}`
    : `the guarantees about typing use the first text field of ${where}`;
  return `the shell's guarantees run on the app's screens ${own.map((screen) => screen.path).join(', ')} (${SCREENS_DIR}/); ${typing}`;
}
