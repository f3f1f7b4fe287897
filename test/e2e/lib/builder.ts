// What a builder does with a copy of the project, for the tests of issue 42: runs `node build.mjs`
// (once, or the preview server and the dev loop until stopped), saves files, and fingerprints
// every file of the copy, .git included, to prove that a refused command deleted or changed nothing.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { present } from '../../present';
import { copySources } from './site';
import { stopProcess } from './processes';
import { until } from './wait';

/** What one `node build.mjs` printed and how it ended. */
export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node build.mjs ...args` in `dir` to its end. */
export function runBuild(dir: string, args: string[], env: Record<string, string> = {}): Outcome {
  const result = spawnSync(process.execPath, ['build.mjs', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: result.status, stdout: result.stdout, stderr: result.signal ? `ended by ${result.signal}` : result.stderr.trim() };
}

/** A copy of the project's sources that is a git repository with one commit, as a builder's checkout is. */
export function gitCopy(): string {
  const dir = copySources();
  const git = (...args: string[]) => {
    const result = spawnSync('git', ['-c', 'user.name=Builder', '-c', 'user.email=builder@example.com', ...args], { cwd: dir });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')} in the copy: ${result.stderr}`);
  };
  git('init', '--quiet');
  git('add', '.');
  git('commit', '--quiet', '-m', 'the template');
  return dir;
}

/**
 * Every entry under `dir` (files by their bytes' SHA-256, links by their target, folders by name;
 * links are not followed), so that two fingerprints are equal exactly when nothing was added,
 * deleted or changed.
 */
export function fingerprint(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const full = path.join(folder, name);
      const relative = path.relative(dir, full);
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) entries[relative] = `link ${readlinkSync(full)}`;
      else if (stat.isDirectory()) {
        entries[relative] = 'folder';
        walk(full);
      } else entries[relative] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  walk(dir);
  return entries;
}

/** Rewrites package.json of the copy `dir` with `change` applied to its parsed contents. */
export function editPackageJson(dir: string, change: (pkg: Record<string, unknown>) => Record<string, unknown>): void {
  const file = path.join(dir, 'package.json');
  writeFileSync(file, JSON.stringify(change(JSON.parse(readFileSync(file, 'utf8'))), null, 2) + '\n');
}

/**
 * Builds the React build of the project copy `project` with the worker's stall limit at `seconds`
 * (package.json `stallSeconds`) into its dist/; returns that folder, or throws with the build's
 * own error.
 */
export function buildWithStallLimit(project: string, seconds: number): string {
  editPackageJson(project, (pkg) => ({ ...pkg, stallSeconds: seconds }));
  const out = path.join(project, 'dist');
  const result = runBuild(project, ['--out', out]);
  if (result.code !== 0) throw new Error(`the copy with a ${seconds} s stall limit did not build: ${result.stderr}`);
  return out;
}

/** A running `node build.mjs --serve` or `--watch`: its output so far, its URL, and a stop. */
export interface Running {
  child: ChildProcess;
  output(): string;
  url: string;
  stop(): Promise<void>;
}

/** Starts `node build.mjs ...args` in `dir` on a free port and waits for its `serving … on URL` line. */
export async function startServing(dir: string, args: string[], env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, ['build.mjs', ...args], {
    cwd: dir,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (data) => (out += data));
  child.stderr?.on('data', (data) => (out += data));
  const stop = () => stopProcess(child);
  try {
    const url = present(
      await until(
        `node build.mjs ${args.join(' ')} to serve`,
        () => {
          if (child.exitCode !== null) throw new Error(`node build.mjs ${args.join(' ')} ended with ${child.exitCode}:\n${out}`);
          return /serving .* on (http:\/\/\S+)/.exec(out)?.[1];
        },
        30_000,
      ),
      'the serving line',
    );
    return { child, output: () => out, url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
