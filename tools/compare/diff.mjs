// What changed between two builds: files (added, removed, changed, with byte deltas raw and gzip),
// the modules of the page's script and stylesheet by package, the SBOM's packages, the version.
// Pure: it reads two Build records (tools/compare/read-build.mjs) and nothing else.

/** @typedef {import('./read-build.mjs').Build} Build */
/** @typedef {import('./read-build.mjs').AuditedFile} AuditedFile */
/** @typedef {{ path: string, bytes: number, gzip: number }} FileSize */
/** @typedef {{ path: string, oldPath: string, bytes: number, gzip: number, deltaBytes: number, deltaGzip: number }} ChangedFile */
/** @typedef {{ path: string, oldBytes: number, newBytes: number }} ModuleChange */
/** @typedef {{ group: string, own: boolean, added: ModuleChange[], removed: ModuleChange[], resized: ModuleChange[] }} GroupChange */
/** @typedef {{ output: string, groups: GroupChange[] } } OutputChange */
/** @typedef {{ name: string, old: import('./read-build.mjs').SbomPackage | null, new: import('./read-build.mjs').SbomPackage | null }} PackageChange */
/**
 * @typedef {{
 *   name: string,
 *   build: { old: string, new: string },
 *   version: { old: string, new: string },
 *   files: { added: FileSize[], removed: FileSize[], changed: ChangedFile[] },
 *   modules: OutputChange[] | null,
 *   packages: PackageChange[],
 * }} BuildDiff
 */

/**
 * A file's name with its content hash left out (`assets/app-FEJ43LLF.js` -> `assets/app-*.js`),
 * so a hashed file that changed is one changed file, not one removed and one added.
 * @param {string} file
 */
export const stableName = (file) => file.replace(/-[A-Z0-9]{8}(\.[a-z]+)$/, '-*$1');

/**
 * Entries of a list keyed by a name of each.
 * @template T
 * @param {T[]} items
 * @param {(item: T) => string} keyOf
 * @returns {Map<string, T>}
 */
const byKey = (items, keyOf) => new Map(items.map((item) => [keyOf(item), item]));

/**
 * The keys of two maps, sorted: every name either side has.
 * @param {Map<string, unknown>} a
 * @param {Map<string, unknown>} b
 */
const allKeys = (a, b) => [...new Set([...a.keys(), ...b.keys()])].sort();

/**
 * Files added, removed and changed (another SHA-384), hashed names paired by their stable name.
 * @param {AuditedFile[]} oldFiles
 * @param {AuditedFile[]} newFiles
 */
export function diffFiles(oldFiles, newFiles) {
  const before = byKey(oldFiles, (file) => stableName(file.path));
  const after = byKey(newFiles, (file) => stableName(file.path));
  /** @type {BuildDiff['files']} */
  const files = { added: [], removed: [], changed: [] };
  for (const key of allKeys(before, after)) {
    const was = before.get(key);
    const is = after.get(key);
    if (!was && is) files.added.push({ path: is.path, bytes: is.bytes, gzip: is.gzip });
    else if (was && !is) files.removed.push({ path: was.path, bytes: was.bytes, gzip: was.gzip });
    else if (was && is && was.sha384 !== is.sha384)
      files.changed.push({
        path: is.path,
        oldPath: was.path,
        bytes: is.bytes,
        gzip: is.gzip,
        deltaBytes: is.bytes - was.bytes,
        deltaGzip: is.gzip - was.gzip,
      });
  }
  return files;
}

/**
 * One group's modules added, removed and resized (grown or shrunk).
 * @param {string} group
 * @param {import('../pipeline/composition.mjs').Group | undefined} was
 * @param {import('../pipeline/composition.mjs').Group | undefined} is
 * @returns {GroupChange}
 */
function diffGroup(group, was, is) {
  const before = byKey(was?.modules ?? [], (module) => module.path);
  const after = byKey(is?.modules ?? [], (module) => module.path);
  /** @type {GroupChange} */
  const change = { group, own: Boolean((is ?? was)?.own), added: [], removed: [], resized: [] };
  for (const key of allKeys(before, after)) {
    const oldBytes = before.get(key)?.bytes ?? 0;
    const newBytes = after.get(key)?.bytes ?? 0;
    if (!before.has(key)) change.added.push({ path: key, oldBytes, newBytes });
    else if (!after.has(key)) change.removed.push({ path: key, oldBytes, newBytes });
    else if (oldBytes !== newBytes) change.resized.push({ path: key, oldBytes, newBytes });
  }
  return change;
}

/**
 * The modules of each shipped output (paired by stable name) that changed, by package or folder.
 * @param {import('../pipeline/composition.mjs').Composition} oldComposition
 * @param {import('../pipeline/composition.mjs').Composition} newComposition
 * @returns {OutputChange[]}
 */
export function diffModules(oldComposition, newComposition) {
  const before = byKey(oldComposition.outputs, (output) => stableName(output.path));
  const after = byKey(newComposition.outputs, (output) => stableName(output.path));
  /** @type {OutputChange[]} */
  const outputs = [];
  for (const key of allKeys(before, after)) {
    const oldGroups = byKey(before.get(key)?.groups ?? [], (group) => group.name);
    const newGroups = byKey(after.get(key)?.groups ?? [], (group) => group.name);
    const groups = allKeys(oldGroups, newGroups)
      .map((name) => diffGroup(name, oldGroups.get(name), newGroups.get(name)))
      .filter((change) => change.added.length + change.removed.length + change.resized.length > 0);
    if (groups.length) outputs.push({ output: key, groups });
  }
  return outputs;
}

/**
 * The SBOM's packages added, removed, or with another version or licence.
 * @param {import('./read-build.mjs').SbomPackage[]} oldPackages
 * @param {import('./read-build.mjs').SbomPackage[]} newPackages
 * @returns {PackageChange[]}
 */
export function diffPackages(oldPackages, newPackages) {
  const before = byKey(oldPackages, (pkg) => pkg.name);
  const after = byKey(newPackages, (pkg) => pkg.name);
  return allKeys(before, after)
    .map((name) => ({ name, old: before.get(name) ?? null, new: after.get(name) ?? null }))
    .filter((change) => JSON.stringify(change.old) !== JSON.stringify(change.new));
}

/**
 * Everything that changed from `older` to `newer`. `modules` is null when either build has no bundle.json.
 * @param {Build} older
 * @param {Build} newer
 * @returns {BuildDiff}
 */
export function diffBuilds(older, newer) {
  return {
    name: newer.audit.name,
    build: { old: older.audit.build, new: newer.audit.build },
    version: { old: older.audit.version, new: newer.audit.version },
    files: diffFiles(older.audit.files, newer.audit.files),
    modules: older.composition && newer.composition ? diffModules(older.composition, newer.composition) : null,
    packages: diffPackages(older.packages, newer.packages),
  };
}

/**
 * Whether the diff finds nothing changed.
 * @param {BuildDiff} diff
 */
export const unchanged = (diff) =>
  diff.version.old === diff.version.new &&
  diff.files.added.length + diff.files.removed.length + diff.files.changed.length === 0 &&
  (diff.modules?.length ?? 0) === 0 &&
  diff.packages.length === 0;
