// The compare command's report of a BuildDiff (tools/compare/diff.mjs): plain text for a terminal,
// or Markdown for a pull request comment. The same facts in the same order either way.

/** @typedef {import('./diff.mjs').BuildDiff} BuildDiff */

import { unchanged } from './diff.mjs';

// Thousands grouped by hand, as the build's size table does (no ICU data to load).
/** @param {number} n */
const number = (n) => String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');

/**
 * A signed byte count: "+1,234 B", "-56 B", "±0 B".
 * @param {number} n
 */
export const signed = (n) => `${n > 0 ? '+' : n < 0 ? '-' : '±'}${number(n)} B`;

/**
 * A licence list as one string.
 * @param {import('./read-build.mjs').SbomPackage} pkg
 */
const licences = (pkg) => pkg.licences.join(', ') || 'no licence';

/**
 * One package change as a sentence.
 * @param {import('./diff.mjs').PackageChange} change
 */
function packageLine(change) {
  if (!change.old && change.new) return `added ${change.name} ${change.new.version} (${licences(change.new)})`;
  if (change.old && !change.new) return `removed ${change.name} ${change.old.version} (${licences(change.old)})`;
  const was = /** @type {import('./read-build.mjs').SbomPackage} */ (change.old);
  const is = /** @type {import('./read-build.mjs').SbomPackage} */ (change.new);
  const parts = [];
  if (was.version !== is.version) parts.push(`${was.version} -> ${is.version}`);
  if (licences(was) !== licences(is)) parts.push(`licence ${licences(was)} -> ${licences(is)}`);
  return `${change.name}: ${parts.join(', ')}`;
}

/**
 * The report's lines, each as [kind, text] (kind: 'title' | 'heading' | 'line'), shared by both formats.
 * @param {BuildDiff} diff
 * @returns {[kind: 'title' | 'heading' | 'line', text: string][]}
 */
function sections(diff) {
  /** @type {[kind: 'title' | 'heading' | 'line', text: string][]} */
  const out = [];
  const builds = diff.build.old === diff.build.new ? `${diff.build.new} build` : `${diff.build.old} build -> ${diff.build.new} build`;
  out.push(['title', `${diff.name}: version ${diff.version.old} -> ${diff.version.new} (${builds})`]);
  if (unchanged(diff)) {
    out.push(['heading', 'No change: the same version, file for file']);
    return out;
  }
  const { added, removed, changed } = diff.files;
  out.push(['heading', `Files: ${changed.length} changed, ${added.length} added, ${removed.length} removed`]);
  for (const file of changed) {
    const name = file.oldPath === file.path ? file.path : `${file.oldPath} -> ${file.path}`;
    out.push([
      'line',
      `changed ${name}: ${signed(file.deltaBytes)} raw, ${signed(file.deltaGzip)} gzip (now ${number(file.bytes)} B, ${number(file.gzip)} B gzip)`,
    ]);
  }
  for (const file of added) out.push(['line', `added ${file.path}: ${number(file.bytes)} B, ${number(file.gzip)} B gzip`]);
  for (const file of removed) out.push(['line', `removed ${file.path}: was ${number(file.bytes)} B, ${number(file.gzip)} B gzip`]);
  if (diff.modules === null) out.push(['heading', 'Modules: unknown (a build without bundle.json)']);
  else if (!diff.modules.length) out.push(['heading', 'Modules: no change']);
  for (const output of diff.modules ?? []) {
    out.push(['heading', `Modules of ${output.output}`]);
    for (const group of output.groups) {
      const owner = group.own ? `${group.group} (our code)` : group.group;
      for (const module of group.added) out.push(['line', `${owner}: added ${module.path} (${signed(module.newBytes)})`]);
      for (const module of group.removed) out.push(['line', `${owner}: removed ${module.path} (${signed(-module.oldBytes)})`]);
      for (const module of group.resized) {
        const verb = module.newBytes > module.oldBytes ? 'grew' : 'shrank';
        out.push([
          'line',
          `${owner}: ${module.path} ${verb} ${signed(module.newBytes - module.oldBytes)} (now ${number(module.newBytes)} B)`,
        ]);
      }
    }
  }
  out.push(['heading', diff.packages.length ? 'Packages (SBOM)' : 'Packages (SBOM): no change']);
  for (const change of diff.packages) out.push(['line', packageLine(change)]);
  return out;
}

/**
 * The report as plain text for a terminal.
 * @param {BuildDiff} diff
 */
export function textReport(diff) {
  const lines = sections(diff).map(([kind, text]) => (kind === 'line' ? `  ${text}` : text));
  return lines.join('\n') + '\n';
}

/**
 * The report as Markdown for a pull request comment (names in code spans).
 * @param {BuildDiff} diff
 */
export function markdownReport(diff) {
  /** @param {string} text */
  const code = (text) => text.replace(/`/g, "'");
  const lines = sections(diff).map(([kind, text]) => {
    if (kind === 'title') return `## ${code(text)}\n`;
    if (kind === 'heading') return `\n**${code(text)}**\n`;
    return `- ${code(text)}`;
  });
  return lines.join('\n') + '\n';
}
