// The app's screens, file-based: each top-level .tsx file of src/ui/screens/ is one route
// (`index.tsx` -> `/`, `status.tsx` -> `/status/`), and exports its title, its place in the
// navigation and its component. Everything that needs the route table reads it from here: the
// build (HTML, precache, _headers) and the Node tests through listScreens(), the page's code and
// the browser tests through the virtual modules that screensPlugin() serves to esbuild.
// A screen's own sub-components live in a sub-folder (src/ui/screens/help/ for help.tsx), which is no route.
// What editors and tools leave beside the files (.DS_Store, vim's .help.tsx.swp, emacs'
// index.tsx~, sed -i's temporary sedXXXXXX) is no screen, and is ignored.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BuildError } from './build-error.mjs';

/**
 * One screen: a top-level .tsx file of src/ui/screens/.
 * @typedef {object} Screen
 * @property {string} name the file's name without `.tsx` (`index`, `status`)
 * @property {string} path its route: `/` for index.tsx, else `/<name>/`
 * @property {string} title its `title` export: the <h1>, the nav link, the page title
 * @property {number} navOrder its `navOrder` export: the nav lists screens by it, lowest first
 * @property {string} file its path from the project's root (`src/ui/screens/status.tsx`)
 */

/** The folder of the screens, relative to the project's root. */
export const SCREENS_DIR = 'src/ui/screens';

/** A screen's file name without `.tsx`: lowercase words joined by "-", as it appears in the URL. */
const SCREEN_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * Names a screen cannot take: `/assets/` holds the hashed files (served `immutable`), `404` is the
 * not-found page; the folders of static/ are added by listScreens(). Each would share a folder of dist/.
 */
const RESERVED = ['assets', '404'];

// `export const title = 'Notes';` (or "…"): a plain string literal, read without running the code.
const TITLE = /^export const title(?:: string)? = ('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*");?$/m;
// `export const navOrder = 2;`: where the screen's link goes in the navigation, lowest first; any
// other value is read too, to say why it is no place.
const NAV_ORDER = /^export const navOrder(?:: number)? = (.*?);?\s*$/m;
/** Code files that are not screens (.tsx): a screen written with the wrong extension gets a line. */
const OTHER_CODE = /\.(ts|js|jsx|mjs|cjs|mts|cts)$/;
// The component: `export default function …`, `export default …`, or `export { X as default }`.
const DEFAULT_EXPORT = /^export default |^export \{[^}]*\bas default\b[^}]*\}/m;

/**
 * The value of a JS string literal in single or double quotes, or undefined if it is not a plain one.
 * @param {string} literal
 * @returns {string | undefined}
 */
function stringValue(literal) {
  // JSON's string syntax, once `\'` is unescaped and a bare `"` (possible between single quotes) escaped.
  const json = literal
    .slice(1, -1)
    .replace(/\\(.)|"/g, (match, escaped) => (escaped === undefined ? '\\"' : escaped === "'" ? "'" : match));
  try {
    return JSON.parse(`"${json}"`);
  } catch {
    return undefined;
  }
}

/**
 * One screen file's route, read from its source; throws a one-line BuildError naming the file.
 * @param {string} root
 * @param {string} fileName
 * @returns {Screen}
 */
function readScreen(root, fileName) {
  const file = `${SCREENS_DIR}/${fileName}`;
  const name = fileName.slice(0, -'.tsx'.length);
  const source = readFileSync(path.join(root, file), 'utf8');
  const titleLiteral = TITLE.exec(source)?.[1];
  if (!titleLiteral)
    throw new BuildError(
      `${file} has no title: add \`export const title = 'Its title';\` (a plain string; it is the <h1>, the nav link and the page title)`,
    );
  const title = stringValue(titleLiteral)?.trim();
  if (!title) throw new BuildError(`${file}: its title must be a non-empty plain string literal`);
  const navOrder = NAV_ORDER.exec(source)?.[1];
  if (navOrder === undefined)
    throw new BuildError(`${file} has no place in the navigation: add \`export const navOrder = 1;\` (a whole number, lowest first)`);
  if (!/^\d+$/.test(navOrder))
    throw new BuildError(`${file}: navOrder must be a whole number, 0 or more, written as digits (lowest first), not ${navOrder}`);
  if (!DEFAULT_EXPORT.test(source))
    throw new BuildError(`${file} has no component: export it as the default (\`export default function …\`)`);
  return { name, path: name === 'index' ? '/' : `/${name}/`, title, navOrder: Number(navOrder), file };
}

/**
 * The top-level entries of static/, which are copied to dist/ beside the screens' folders.
 * @param {string} root
 * @returns {string[]}
 */
function staticEntries(root) {
  try {
    return readdirSync(path.join(root, 'static'));
  } catch {
    return [];
  }
}

/**
 * The screens of the project at `root`, in navigation order: [{ name, path, title, navOrder, file }].
 * Throws a one-line error (named BuildError) for a file that is not a screen: a bad or reserved
 * name, no title, no navOrder, no default export, or a title or navOrder another screen has.
 * @param {string} root
 * @returns {Screen[]}
 */
export function listScreens(root) {
  const dir = path.join(root, SCREENS_DIR);
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    throw new BuildError(`missing ${SCREENS_DIR}/ (one .tsx file per screen, index.tsx for /)`);
  }
  const reserved = new Set([...RESERVED, ...staticEntries(root)]);
  /** @type {Screen[]} */
  const screens = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    // Sub-folders hold a screen's own parts; they are no route. Dotfiles, backups and temporary
    // files are no screens either; only a code file that is not .tsx gets a line.
    if (entry.isDirectory() || entry.name.startsWith('.')) continue;
    const file = `${SCREENS_DIR}/${entry.name}`;
    if (!entry.name.endsWith('.tsx') && !OTHER_CODE.test(entry.name)) continue;
    if (!entry.name.endsWith('.tsx'))
      throw new BuildError(`${file} is not a screen: only .tsx files go in ${SCREENS_DIR}/ (a screen's own parts go in a sub-folder)`);
    const name = entry.name.slice(0, -'.tsx'.length);
    if (!SCREEN_NAME.test(name))
      throw new BuildError(
        `${file}: a screen's file name is its URL, so it must be lowercase letters and digits joined by "-" (for example field-notes.tsx)`,
      );
    if (reserved.has(name))
      throw new BuildError(
        `${file}: "${name}" is taken (${name === '404' ? 'the not-found page' : `dist/${name}/ holds other files`}); choose another name`,
      );
    screens.push(readScreen(root, entry.name));
  }
  if (!screens.some((screen) => screen.path === '/')) throw new BuildError(`${SCREENS_DIR}/index.tsx is missing: it is the screen at /`);
  for (const key of /** @type {const} */ (['title', 'navOrder'])) {
    /** @type {Map<string | number, Screen>} */
    const seen = new Map();
    for (const screen of screens) {
      const other = seen.get(screen[key]);
      if (other) {
        const [first, repeat] = byLastChanged(root, other, screen);
        throw new BuildError(`${repeat.file}: ${key} ${JSON.stringify(screen[key])} is also ${first.file}'s; each screen needs its own`);
      }
      seen.set(screen[key], screen);
    }
  }
  return screens.sort((a, b) => a.navOrder - b.navOrder);
}

/**
 * Two screens that share a value, the one saved last: that is the one that repeats it
 * (a screen just added or edited), whatever the order of their names.
 * @param {string} root
 * @param {Screen} earlier the one first by name
 * @param {Screen} later
 * @returns {[Screen, Screen]}
 */
function byLastChanged(root, earlier, later) {
  /** @param {Screen} screen */
  const changed = (screen) => statSync(path.join(root, screen.file)).mtimeMs;
  return changed(earlier) > changed(later) ? [later, earlier] : [earlier, later];
}

/** The namespace of the virtual modules in esbuild. */
const NAMESPACE = 'app-screens';

/**
 * The source of `app:routes`: the route table as data, [{ path, title }] in navigation order.
 * @param {Screen[]} screens
 */
const routesModule = (screens) =>
  `export default ${JSON.stringify(screens.map(({ path: routePath, title }) => ({ path: routePath, title })))};\n`;

/**
 * The source of `app:screens`: route path -> the screen's component, or with `lazy`, for every
 * screen but the one at `/`, `{ source, load }`: the module that holds it and a function that
 * imports it. Those screens (`app:lazy-screens`) are in src/ui/later.ts, the one chunk of what no
 * first screen needs, loaded on first use (src/ui/screen-loader.ts): one chunk, so that the code
 * it shares with the page is one chunk too, which the page imports (esbuild makes a chunk for each
 * set of importers).
 * @param {Screen[]} screens
 * @param {boolean} lazy
 */
function screensModule(screens, lazy) {
  const eager = screens.filter((screen) => !lazy || screen.path === '/');
  const imports = eager.map((screen) => `import screen${screens.indexOf(screen)} from ${JSON.stringify('./' + screen.file)};`);
  const entries = screens.map((screen) =>
    eager.includes(screen)
      ? `${JSON.stringify(screen.path)}: screen${screens.indexOf(screen)}`
      : `${JSON.stringify(screen.path)}: { source: ${JSON.stringify(LATER_MODULE)}, load: () => import(${JSON.stringify('./' + LATER_MODULE)}).then((later) => ({ default: later.screens[${JSON.stringify(screen.path)}] })) }`,
  );
  return `${imports.join('\n')}\nexport default { ${entries.join(', ')} };\n`;
}

/** The module of what no first screen needs (the screens but `/` among it), from the project's root: the page names its scripts by it. */
export const LATER_MODULE = 'src/ui/later.ts';

/**
 * The source of `app:lazy-screens`: route path -> component of every screen but the one at `/`.
 * @param {Screen[]} screens
 */
function lazyScreensModule(screens) {
  const lazy = screens.filter((screen) => screen.path !== '/');
  const imports = lazy.map((screen, index) => `import screen${index} from ${JSON.stringify('./' + screen.file)};`);
  const entries = lazy.map((screen, index) => `${JSON.stringify(screen.path)}: screen${index}`);
  return `${imports.join('\n')}\nexport default { ${entries.join(', ')} };\n`;
}

/**
 * The esbuild plugin that serves the screens as two virtual modules: `app:routes` (the route
 * table, data only, for the router and the navigation) and `app:screens` (route path ->
 * component, or with `lazy` a loader for each screen but `/`). Both are made again from the folder
 * on every build and rebuild.
 * @param {string} root
 * @param {{ lazy?: boolean }} [options]
 * @returns {import('esbuild').Plugin}
 */
export function screensPlugin(root, { lazy = false } = {}) {
  return {
    name: 'app-screens',
    setup(build) {
      build.onResolve({ filter: /^app:(routes|screens|lazy-screens)$/ }, (args) => ({ path: args.path, namespace: NAMESPACE }));
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        let screens;
        try {
          screens = listScreens(root);
        } catch (error) {
          return { errors: [{ text: /** @type {Error} */ (error).message }], watchDirs: [path.join(root, SCREENS_DIR)] };
        }
        const contents =
          args.path === 'app:routes'
            ? routesModule(screens)
            : args.path === 'app:screens'
              ? screensModule(screens, lazy)
              : lazyScreensModule(screens);
        // watchDirs: a screen added or removed changes the module (esbuild's own watch mode).
        return {
          contents,
          loader: 'js',
          resolveDir: root,
          watchDirs: [path.join(root, SCREENS_DIR)],
          watchFiles: screens.map((screen) => path.join(root, screen.file)),
        };
      });
    },
  };
}
