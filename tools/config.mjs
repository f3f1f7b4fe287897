// The project's configuration, read and checked in one place, once per build: package.json (the
// app's name and display name, the budgets, the network-only paths), the base path the site is
// served under (--base), and the screens (the routes, with the not-found page). Everything the
// build, the dev loop and the tests derive from it (the defines: tools/defines.mjs) comes from here.
import { BuildError } from './build-error.mjs';
import { parseJson, readRequired } from './project-files.mjs';
import { listScreens } from './screens.mjs';

/**
 * The parts of package.json the tools read; unchecked until readConfig() checks them.
 * @typedef {{ name?: unknown, displayName?: unknown, description?: unknown, version?: string, budgets?: unknown, networkOnly?: unknown, claimedPaths?: unknown, stallSeconds?: unknown }} PackageJson
 */

/**
 * One screen of the app: the route path it is served under (with its trailing slash, '/404' for
 * 404.html) and its title.
 * @typedef {{ path: string, title: string }} Screen
 */

/**
 * The app's name constants, as esbuild `define`s them (src/contract/app-name.ts).
 * @typedef {{ __APP_NAME__: string, __APP_TITLE__: string, __BASE__: string }} Identity
 */

/**
 * The checked configuration of one build.
 * @typedef {object} Config
 * @property {PackageJson & { name: string }} pkg package.json as read (its name checked)
 * @property {Identity} identity the name, display name and base
 * @property {string} description package.json `description` (the display name without one): the page's and the manifest's
 * @property {string[]} networkOnly path prefixes under the base the worker never answers for
 * @property {string[]} claimedPaths path prefixes under the base whose every navigation the worker answers
 * @property {number} stallSeconds how long a download may make no progress before it is asked again
 * @property {Record<string, number>} budgets gzip budgets in bytes, by group
 * @property {Screen[]} screens every screen, the not-found page last
 */

/**
 * The app's name constants from package.json, for esbuild `define` in the page and the worker
 * (src/contract/app-name.ts): `name` is the id behind every cache, channel and storage key; `displayName`
 * (optional) is what people read. Throws a one-line BuildError for a name that cannot serve.
 * @param {PackageJson} pkg
 * @param {string} [base]
 * @returns {Identity}
 */
export function appIdentity(pkg, base = '/') {
  if (typeof pkg.name !== 'string' || !/^[a-z0-9][a-z0-9._-]*$/.test(pkg.name))
    throw new BuildError('package.json "name" must be lowercase letters, digits, ".", "_" or "-" (it names caches and storage keys)');
  const title = pkg.displayName ?? pkg.name;
  if (typeof title !== 'string' || !title.trim()) throw new BuildError('package.json "displayName" must be a non-empty string');
  return { __APP_NAME__: pkg.name, __APP_TITLE__: title, __BASE__: checkedBase(base) };
}

/**
 * What the app is, for people: package.json `description`, shipped in every page's `<meta
 * name="description">` and the web app manifest; the display name when there is none.
 * @param {PackageJson} pkg
 * @param {Identity} identity
 * @returns {string}
 */
export function appDescription(pkg, identity) {
  const description = pkg.description ?? identity.__APP_TITLE__;
  if (typeof description !== 'string' || !description.trim()) throw new BuildError('package.json "description" must be a non-empty string');
  return description;
}

/**
 * The path the site is served under (`--base`): `/` or `/some/path/`, starting and ending with a
 * slash, as every URL of the app is built by appending to it. Anything else is a one-line error.
 * @param {unknown} base
 * @returns {string}
 */
export function checkedBase(base) {
  const refused = () =>
    new BuildError(
      `--base must start and end with "/" and hold only plain path segments (for example /my-app/), not ${JSON.stringify(base)}`,
    );
  if (typeof base !== 'string' || !/^\/([A-Za-z0-9._~-]+\/)*$/.test(base)) throw refused();
  // `.` and `..` are no folders of the host: a browser resolves /a/../b/ to /b/, so the worker's
  // scope and every URL the app writes under the base would point somewhere else.
  if (base.split('/').some((segment) => segment === '.' || segment === '..')) throw refused();
  return base;
}

/**
 * Checks package.json `networkOnly` (path prefixes the worker never answers for: an API, ACME,
 * server-side pages), relative to the base like `claimedPaths`: `/.well-known/` is
 * /my-app/.well-known/ under --base /my-app/. Returns the list, [] when absent.
 * @param {PackageJson} pkg
 * @param {string} [base]
 * @returns {string[]}
 */
export function networkOnlyOf(pkg, base = '/') {
  return pathPrefixesOf(pkg, 'networkOnly', base);
}

/**
 * Checks package.json `claimedPaths` (path prefixes under the base where every navigation is the
 * app's, even one its version does not know: `["/"]` claims every path); returns [] when absent.
 * @param {PackageJson} pkg
 * @param {string} [base]
 * @returns {string[]}
 */
export function claimedPathsOf(pkg, base = '/') {
  return pathPrefixesOf(pkg, 'claimedPaths', base);
}

/**
 * A package.json field that lists path prefixes relative to the base, checked; [] when absent.
 * One convention for every such field: a prefix that already starts with the base (the absolute
 * form, `/my-app/api/` under --base /my-app/) is refused, since it would mean /my-app/my-app/api/.
 * @param {PackageJson} pkg
 * @param {'networkOnly' | 'claimedPaths'} field
 * @param {string} base
 * @returns {string[]}
 */
function pathPrefixesOf(pkg, field, base) {
  const prefixes = pkg[field] ?? [];
  const valid = Array.isArray(prefixes) && prefixes.every((prefix) => typeof prefix === 'string' && prefix.startsWith('/'));
  if (!valid) throw new BuildError(`package.json "${field}" must be a list of path prefixes starting with "/"`);
  const absolute = base === '/' ? undefined : prefixes.find((prefix) => prefix.startsWith(base));
  if (absolute !== undefined)
    throw new BuildError(
      `package.json "${field}" has ${JSON.stringify(absolute)}, which starts with the base ${base}: its paths are relative to the base (write ${JSON.stringify(`/${absolute.slice(base.length)}`)})`,
    );
  return prefixes;
}

/**
 * Checks package.json `stallSeconds` (how long the worker's download may make no progress before
 * it is abandoned and asked again; 10 when absent, for links that pause longer).
 * @param {PackageJson} pkg
 * @returns {number}
 */
export function stallSecondsOf(pkg) {
  const seconds = pkg.stallSeconds ?? 10;
  if (typeof seconds !== 'number' || !(seconds > 0) || seconds > 600)
    throw new BuildError('package.json "stallSeconds" must be a number of seconds above 0 and at most 600');
  return seconds;
}

/**
 * The budgets a build measures (tools/pipeline/budgets.mjs): the worker, the JS every page loads
 * (React or Preact build), the JS loaded on use, CSS, our own code, imported files.
 */
export const BUDGET_KEYS = ['sw.js', 'js', 'js.preact', 'lazy', 'css', 'app', 'assets'];

/**
 * Checks package.json `budgets` (gzip bytes per group, each optional); returns them, {} when absent.
 * A budget that is no positive number or a key no build measures is a one-line BuildError.
 * @param {PackageJson} pkg
 * @returns {Record<string, number>}
 */
export function budgetsOf(pkg) {
  const budgets = pkg.budgets ?? {};
  if (typeof budgets !== 'object' || Array.isArray(budgets) || budgets === null)
    throw new BuildError(`package.json "budgets" must be an object of gzip bytes by group (${BUDGET_KEYS.join(', ')})`);
  for (const [key, bytes] of Object.entries(budgets)) {
    if (!BUDGET_KEYS.includes(key))
      throw new BuildError(`package.json "budgets" has "${key}", which no build measures (the keys are ${BUDGET_KEYS.join(', ')})`);
    if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes <= 0)
      throw new BuildError(`package.json "budgets"."${key}" must be a positive number of gzip bytes, not ${JSON.stringify(bytes)}`);
  }
  return /** @type {Record<string, number>} */ (budgets);
}

/** The package.json keys this template reads, beside npm's own: a key that looks like one of them is a typo. */
export const OUR_KEYS = ['displayName', 'budgets', 'networkOnly', 'claimedPaths', 'stallSeconds'];

/**
 * The keys npm and the tools around it define (docs.npmjs.com, "package.json", and the common
 * additions): never taken for a typo of ours, however close their spelling.
 */
const KNOWN_KEYS = new Set([
  ...['name', 'version', 'description', 'keywords', 'homepage', 'bugs', 'license', 'author', 'contributors', 'funding'],
  ...['files', 'main', 'browser', 'bin', 'man', 'directories', 'repository', 'scripts', 'config', 'dependencies'],
  ...['devDependencies', 'peerDependencies', 'peerDependenciesMeta', 'bundleDependencies', 'bundledDependencies'],
  ...['optionalDependencies', 'overrides', 'engines', 'os', 'cpu', 'libc', 'private', 'publishConfig', 'workspaces'],
  ...['type', 'exports', 'imports', 'types', 'typings', 'module', 'sideEffects', 'packageManager', 'devEngines'],
]);

/**
 * The edit distance between two words (insertions, deletions, substitutions and swaps of two
 * neighbours each count one): how far a key is from one of ours.
 * @param {string} a
 * @param {string} b
 */
function editDistance(a, b) {
  /** @type {number[][]} */
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/**
 * Refuses a package.json key that is not ours but looks like one of OUR_KEYS (`budget`,
 * `networkonly`, `stallSecond`): the build would otherwise take it for no setting and say nothing.
 * Throws a one-line BuildError naming the key and the one it looks like.
 * @param {PackageJson} pkg
 */
export function refuseLookalikeKeys(pkg) {
  for (const key of Object.keys(pkg)) {
    if (OUR_KEYS.includes(key) || KNOWN_KEYS.has(key)) continue;
    const folded = key.toLowerCase().replace(/[-_\s]/g, '');
    const meant = OUR_KEYS.find((ours) => editDistance(folded, ours.toLowerCase()) <= Math.min(2, Math.floor(ours.length / 4)));
    if (meant) throw new BuildError(`package.json has "${key}", which is no setting: did you mean "${meant}"? (rename it, or remove it)`);
  }
}

/**
 * The app's screens: one per file of src/ui/screens/ (tools/screens.mjs), plus the not-found page
 * '/404' (404.html).
 * @param {string} root
 * @returns {Promise<Screen[]>}
 */
export async function readScreens(root) {
  const routes = listScreens(root).map(({ path: routePath, title }) => ({ path: routePath, title }));
  return [...routes, { path: '/404', title: 'Not found' }];
}

/**
 * Reads package.json as it is, checked for nothing but being JSON.
 * @param {string} root
 * @returns {Promise<PackageJson>}
 */
export async function readPackageJson(root) {
  return /** @type {PackageJson} */ (parseJson(await readRequired(root, 'package.json'), 'package.json'));
}

/**
 * Reads and checks the project's configuration: the screens, then package.json and the names
 * and settings in it, for a site served under `base`.
 * @param {string} root
 * @param {{ base?: string }} [options]
 * @returns {Promise<Config>}
 */
export async function readConfig(root, { base = '/' } = {}) {
  const screens = await readScreens(root);
  const pkg = await readPackageJson(root);
  refuseLookalikeKeys(pkg);
  const identity = appIdentity(pkg, base);
  return {
    pkg: { ...pkg, name: identity.__APP_NAME__ },
    identity,
    description: appDescription(pkg, identity),
    networkOnly: networkOnlyOf(pkg, identity.__BASE__),
    claimedPaths: claimedPathsOf(pkg, identity.__BASE__),
    stallSeconds: stallSecondsOf(pkg),
    budgets: budgetsOf(pkg),
    screens,
  };
}
