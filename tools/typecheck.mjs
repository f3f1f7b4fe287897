// Type-checks with the TypeScript compiler API, so a type error stops the build with one line
// (esbuild only strips types; it never checks them). One tsconfig.json serves the page code;
// sw.ts is checked with the same options but the WebWorker lib instead of DOM, because the two
// libs declare conflicting globals (`self`, `onmessage`) and cannot share one program.
// Several programs are checked in one process, each file they share (the libs, @types, src/) read
// and parsed once; `npm test` also keeps TypeScript's incremental state (--cache DIR), so a run
// after an edit checks again only what the edit can affect.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * The programs `npm test` and the build check: page code, the worker, and (tests only) test/,
 * and the node-side JavaScript, checked from its JSDoc types: the tools' own (build.mjs and tools/),
 * the test harness's (test/harness/) and the bench's (test/bench/).
 * @type {Record<string, Program>}
 */
export const PROGRAMS = {
  app: { config: 'tsconfig.json' },
  sw: { config: 'tsconfig.json', files: ['sw.ts'], lib: ['lib.es2022.d.ts', 'lib.webworker.d.ts'] },
  test: { config: 'test/tsconfig.json' },
  tools: { config: 'tools/tsconfig.json' },
  harness: { config: 'test/harness/tsconfig.json' },
  bench: { config: 'test/bench/tsconfig.json' },
};

/**
 * One program: its tsconfig (relative to the root), and optionally its own files and lib.
 * @typedef {{ config: string, files?: string[], lib?: string[] }} Program
 */

/**
 * The files and compiler options of one program: its tsconfig, with the program's own files and lib.
 * @param {string} root
 * @param {Program} program
 * @returns {{ error: ts.Diagnostic } | { error?: undefined, rootNames: string[], options: ts.CompilerOptions, configErrors: ts.Diagnostic[] }}
 */
function programInputs(root, { config, files, lib }) {
  const file = path.join(root, config);
  const read = ts.readConfigFile(file, ts.sys.readFile);
  if (read.error) return { error: read.error };
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(file));
  const rootNames = files ? files.map((f) => path.join(root, f)) : parsed.fileNames;
  const options = { ...parsed.options, noEmit: true, ...(lib ? { lib } : {}) };
  return { rootNames, options, configErrors: parsed.errors };
}

/**
 * A cache of parsed source files for several programs in one process: a file is parsed once for
 * all the programs whose options parse it alike (TypeScript's DocumentRegistry key, as its language
 * service shares files between projects).
 * @returns {(host: ts.CompilerHost, options: ts.CompilerOptions) => ts.CompilerHost}
 */
function sharedSourceFiles() {
  const registry = ts.createDocumentRegistry();
  /** @type {Map<string, ts.SourceFile>} */
  const parsed = new Map();
  return (host, options) => {
    const settings = registry.getKeyForCompilationSettings(options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, onError, createNew) => {
      const how =
        typeof languageVersion === 'object' ? `${languageVersion.languageVersion}|${languageVersion.impliedNodeFormat}` : languageVersion;
      const key = `${settings}|${how}|${fileName}`;
      const known = createNew ? undefined : parsed.get(key);
      if (known) return known;
      const file = read(fileName, languageVersion, onError, createNew);
      if (file) parsed.set(key, file);
      return file;
    };
    return host;
  };
}

/**
 * Type-checks one program; returns its diagnostics as `file:line:col: TSnnnn message` lines.
 * With `cacheDir`, TypeScript's incremental state is kept there (`<name>.tsbuildinfo`): the
 * diagnostics of a file whose inputs did not change since the last check are taken from it.
 * @param {string} root
 * @param {Program} program
 * @param {{ name?: string, cacheDir?: string, share?: ReturnType<typeof sharedSourceFiles> }} [how]
 */
export function typecheckProgram(root, program, { name = 'program', cacheDir, share = sharedSourceFiles() } = {}) {
  const inputs = programInputs(root, program);
  if (inputs.error) return [format(inputs.error, root)];
  const { rootNames, configErrors } = inputs;
  if (!cacheDir) {
    const options = inputs.options;
    const compiled = ts.createProgram({ rootNames, options, host: share(ts.createCompilerHost(options), options) });
    return [...configErrors, ...ts.getPreEmitDiagnostics(compiled)].map((d) => format(d, root));
  }
  mkdirSync(cacheDir, { recursive: true });
  const options = { ...inputs.options, incremental: true, tsBuildInfoFile: path.join(cacheDir, `${name}.tsbuildinfo`) };
  const builder = ts.createIncrementalProgram({ rootNames, options, host: share(ts.createIncrementalCompilerHost(options), options) });
  // The builder's own getters: they reuse the stored diagnostics (ts.getPreEmitDiagnostics would check every file).
  const diagnostics = [
    ...configErrors,
    ...builder.getOptionsDiagnostics(),
    ...builder.getGlobalDiagnostics(),
    ...builder.getSyntacticDiagnostics(),
    ...builder.getSemanticDiagnostics(),
  ];
  // With noEmit, emit() writes only the .tsbuildinfo.
  builder.emit();
  return diagnostics.map((d) => format(d, root));
}

/**
 * Watches programs by name and prints their errors after every change, for `npm run dev`: it
 * runs in a process of its own, so checking never delays a rebuild.
 * @param {string} root
 * @param {string[]} names
 */
export function watchTypes(root, names) {
  for (const name of names) {
    const inputs = programInputs(root, PROGRAMS[name]);
    if (inputs.error) {
      console.error(format(inputs.error, root));
      continue;
    }
    const { rootNames, options } = inputs;
    const quiet = () => {};
    const host = ts.createWatchCompilerHost(rootNames, options, ts.sys, ts.createSemanticDiagnosticsBuilderProgram, quiet, quiet);
    host.afterProgramCreate = (builder) => {
      const diagnostics = [...builder.getSyntacticDiagnostics(), ...builder.getGlobalDiagnostics(), ...builder.getSemanticDiagnostics()];
      for (const diagnostic of diagnostics) console.error(format(diagnostic, root));
      console.log(`type check (${name}): ${diagnostics.length} error${diagnostics.length === 1 ? '' : 's'}`);
    };
    ts.createWatchProgram(host);
  }
}

/**
 * Type-checks several programs by name (keys of PROGRAMS, or of `programs`) in this process,
 * sharing the files they have in common; returns each program's diagnostics.
 * @param {string} root
 * @param {string[]} names
 * @param {{ cacheDir?: string, programs?: Record<string, Program> }} [options] cacheDir: keep the incremental state there
 * @returns {{ name: string, errors: string[] }[]}
 */
export function typecheckEach(root, names, { cacheDir, programs = PROGRAMS } = {}) {
  const share = sharedSourceFiles();
  return names.map((name) => ({ name, errors: typecheckProgram(root, programs[name], { name, cacheDir, share }) }));
}

/**
 * Type-checks several programs by name (keys of PROGRAMS); returns all diagnostics.
 * @param {string} root
 * @param {string[]} names
 */
export function typecheck(root, names) {
  return typecheckEach(root, names).flatMap(({ errors }) => errors);
}

/**
 * One diagnostic as one line: `file:line:col: TSnnnn message`, or `TSnnnn: message` without a place.
 * @param {ts.Diagnostic} d
 * @param {string} root
 */
function format(d, root) {
  const text = ts.flattenDiagnosticMessageText(d.messageText, ' ');
  if (!d.file || d.start === undefined) return `TS${d.code}: ${text}`;
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return `${path.relative(root, d.file.fileName)}:${line + 1}:${character + 1}: TS${d.code} ${text}`;
}

// CLI: `node tools/typecheck.mjs [--watch] [app sw test]` prints diagnostics; without --watch it
// exits 1 on any. For the test runner: `--cache DIR` keeps the incremental state in DIR, and
// `--json` prints one line, `[{ name, errors }]` per program, instead.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const watching = args.includes('--watch');
  const json = args.includes('--json');
  const cacheAt = args.indexOf('--cache');
  const cacheDir = cacheAt >= 0 ? args.splice(cacheAt, 2)[1] : undefined;
  const given = args.filter((arg) => arg !== '--watch' && arg !== '--json');
  const names = given.length ? given : Object.keys(PROGRAMS);
  const unknown = names.filter((name) => !Object.hasOwn(PROGRAMS, name));
  if (unknown.length) {
    console.error(`unknown program ${unknown.join(', ')} (expected ${Object.keys(PROGRAMS).join(', ')})`);
    process.exit(2);
  }
  if (watching) {
    watchTypes(process.cwd(), names);
  } else if (json) {
    const results = typecheckEach(process.cwd(), names, { cacheDir });
    console.log(JSON.stringify(results));
    process.exitCode = results.some(({ errors }) => errors.length) ? 1 : 0;
  } else {
    const lines = typecheck(process.cwd(), names);
    for (const line of lines) console.error(line);
    console.log(`type check (${names.join(', ')}): ${lines.length} error${lines.length === 1 ? '' : 's'}`);
    process.exit(lines.length ? 1 : 0);
  }
}
