// Type-checks with the TypeScript compiler API, so a type error stops the build with one line
// (esbuild only strips types; it never checks them). One tsconfig.json serves the page code;
// sw.ts is checked with the same options but the WebWorker lib instead of DOM, because the two
// libs declare conflicting globals (`self`, `onmessage`) and cannot share one program.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** The programs `npm test` and the build check: page code, the worker, and (tests only) test/. */
export const PROGRAMS = {
  app: { config: 'tsconfig.json' },
  sw: { config: 'tsconfig.json', files: ['sw.ts'], lib: ['lib.es2022.d.ts', 'lib.webworker.d.ts'] },
  test: { config: 'test/tsconfig.json' },
};

/** Type-checks one program; returns its diagnostics as `file:line:col: TSnnnn message` lines. */
export function typecheckProgram(root, { config, files, lib }) {
  const file = path.join(root, config);
  const read = ts.readConfigFile(file, ts.sys.readFile);
  if (read.error) return [format(read.error, root)];
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(file));
  const rootNames = files ? files.map((f) => path.join(root, f)) : parsed.fileNames;
  const options = { ...parsed.options, noEmit: true, ...(lib ? { lib } : {}) };
  const program = ts.createProgram({ rootNames, options });
  return [...parsed.errors, ...ts.getPreEmitDiagnostics(program)].map((d) => format(d, root));
}

/** Type-checks several programs by name (keys of PROGRAMS); returns all diagnostics. */
export function typecheck(root, names) {
  return names.flatMap((n) => typecheckProgram(root, PROGRAMS[n]));
}

function format(d, root) {
  const text = ts.flattenDiagnosticMessageText(d.messageText, ' ');
  if (!d.file || d.start === undefined) return `TS${d.code}: ${text}`;
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return `${path.relative(root, d.file.fileName)}:${line + 1}:${character + 1}: TS${d.code} ${text}`;
}

// CLI: `node tools/typecheck.mjs [app sw test]` prints diagnostics and exits 1 on any.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(PROGRAMS);
  const lines = typecheck(process.cwd(), names);
  for (const l of lines) console.error(l);
  console.log(`type check (${names.join(', ')}): ${lines.length} error${lines.length === 1 ? '' : 's'}`);
  process.exit(lines.length ? 1 : 0);
}
