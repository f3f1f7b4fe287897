#!/usr/bin/env node
// `npm run compare -- OLD_DIST [NEW_DIST] [--markdown]`: what changed between two builds (the live
// one and the one about to ship): files with byte deltas, modules by package, SBOM packages and
// licences, the version ids. Node alone (no bundler): it reads the builds' audit.json, bundle.json
// and sbom.cdx.json. Exit 0 when it could compare, 2 with one line when it could not.
import path from 'node:path';
import { diffBuilds } from './compare/diff.mjs';
import { NotABuild, readBuild } from './compare/read-build.mjs';
import { markdownReport, textReport } from './compare/report.mjs';

const USAGE = 'usage: npm run compare -- OLD_DIST [NEW_DIST] [--markdown] (NEW_DIST defaults to dist/)';

/**
 * Prints one line and exits 2: the command could not compare.
 * @param {string} message
 * @returns {never}
 */
function cannotCompare(message) {
  console.error(`compare: ${message}`);
  process.exit(2);
}

/**
 * The folders and the format from the command line; refuses anything else.
 * @param {string[]} argv
 */
function parseArgs(argv) {
  const markdown = argv.includes('--markdown');
  const folders = argv.filter((arg) => arg !== '--markdown');
  const unknown = folders.find((arg) => arg.startsWith('--'));
  if (unknown) cannotCompare(`unknown option ${unknown}; ${USAGE}`);
  if (folders.length < 1 || folders.length > 2) cannotCompare(USAGE);
  return { older: path.resolve(folders[0]), newer: path.resolve(folders[1] ?? 'dist'), markdown };
}

const { older, newer, markdown } = parseArgs(process.argv.slice(2));
try {
  const diff = diffBuilds(readBuild(older), readBuild(newer));
  process.stdout.write(markdown ? markdownReport(diff) : textReport(diff));
} catch (error) {
  if (error instanceof NotABuild) cannotCompare(error.message);
  throw error;
}
