// One production build: type-checked first with `--check`, built in memory, measured against the
// budgets, then written in one swap.
import path from 'node:path';
import { BuildError } from '../build-error.mjs';
import { budgetRows, overBudget, printTable } from './budgets.mjs';
import { buildSite } from './site.mjs';
import { keptEntries } from './output-folder.mjs';
import { writeAtomically } from './write-atomically.mjs';

/** @typedef {{ preact: boolean, killSwitch: boolean, check: boolean, out: string, base: string }} BuildOptions */

/**
 * Type-checks the page and the worker (`--check`); the first error is the one-line reason.
 * @param {string} root
 */
async function typecheckFirst(root) {
  const { typecheck } = await import('../typecheck.mjs');
  const errors = typecheck(root, ['app', 'sw']);
  if (errors.length) throw new BuildError(`type error: ${errors[0]}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`);
}

/**
 * One production build into `opts.out`: fails on a budget, never leaves a half-written folder,
 * keeps every entry of it that no earlier build wrote.
 * @param {string} root
 * @param {BuildOptions} opts
 */
export async function buildOnce(root, opts) {
  if (opts.check) await typecheckFirst(root);
  const { files, audit, budgets, appGzip, composition, pageScripts } = await buildSite(root, opts);
  const rows = budgetRows(audit, budgets, opts.preact, appGzip, pageScripts);
  printTable(audit, rows, composition);
  const over = overBudget(rows);
  if (over) {
    const [key, gzip, budget] = over;
    throw new BuildError(
      `budget exceeded: ${key} is ${gzip} B gzip, budget ${budget} B; if the growth is wanted, raise "budgets"."${key}" in package.json`,
    );
  }
  const out = path.resolve(root, opts.out);
  const relative = path.relative(root, out);
  const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : out;
  await writeAtomically(out, files, keptEntries(out, shown, files.keys()));
}
