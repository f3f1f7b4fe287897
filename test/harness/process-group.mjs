// One way to run a child process for every tool (the test runner, the engine runs, the test sites,
// the bench): in a process group of its own, so a timeout, a crash or a stopped runner takes the
// browsers, drivers and Xvfb it started down with it.
import { spawn } from 'node:child_process';

/** How long one suite or test file may run before it is stopped. */
export const SUITE_TIMEOUT_MS = 12 * 60_000;

/**
 * A child running in its own process group.
 * @typedef {object} GroupChild
 * @property {import('node:child_process').ChildProcessByStdio<null, import('node:stream').Readable, import('node:stream').Readable>} child
 * @property {{ text: string }} output its stdout and stderr so far, interleaved as they arrived
 * @property {Promise<{ exitedAt: number }>} exited settles when the process exits (performance.now() then)
 * @property {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} closed settles once its output is all read
 * @property {(signal?: NodeJS.Signals) => void} killGroup signals its whole group (SIGKILL unless told); already gone is fine
 */

/** The groups still running: a runner that exits, however it exits, takes them down with it. */
/** @type {Set<GroupChild>} */
const running = new Set();
process.on('exit', () => {
  for (const started of running) started.killGroup();
});

/**
 * Starts `cmd argv` in its own process group, collecting its output (and echoing it, with
 * `echo`). When it closes, anything it left running (a browser after a crash) goes with its group.
 * @param {string} cmd
 * @param {string[]} argv
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, echo?: boolean }} [options] env is added to this process's
 * @returns {GroupChild}
 */
export function startInGroup(cmd, argv, { cwd = process.cwd(), env = {}, echo = false } = {}) {
  const child = spawn(cmd, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const output = { text: '' };
  /** @param {NodeJS.WriteStream} stream */
  const onData = (stream) => (/** @type {Buffer} */ data) => {
    output.text += data;
    if (echo) stream.write(data);
  };
  child.stdout.on('data', onData(process.stdout));
  child.stderr.on('data', onData(process.stderr));
  /** @type {GroupChild} */
  const started = {
    child,
    output,
    exited: new Promise((resolve) => child.once('exit', () => resolve({ exitedAt: performance.now() }))),
    closed: new Promise((resolve) =>
      child.once('close', (code, signal) => {
        started.killGroup();
        running.delete(started);
        resolve({ code, signal });
      }),
    ),
    killGroup(signal = 'SIGKILL') {
      try {
        process.kill(-(/** @type {number} */ (child.pid)), signal);
      } catch {}
    },
  };
  running.add(started);
  return started;
}

/**
 * Ends a child: SIGTERM to it, then SIGKILL to its group if it has not exited within `limitMs`.
 * @param {GroupChild} started
 * @param {number} limitMs
 */
export async function stopInGroup(started, limitMs) {
  const { child } = started;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(resolve, limitMs, 'late')));
  const outcome = await Promise.race([started.exited, late]);
  clearTimeout(timer);
  if (outcome === 'late') started.killGroup();
}

/**
 * Runs `cmd argv` in its own process group, streaming its output (or only capturing it, with
 * `capture`); resolves to { code, out } (out: stdout and stderr) once it and its group are gone.
 * @param {string} cmd
 * @param {string[]} argv
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, capture?: boolean, timeout?: number }} [options]
 * @returns {Promise<{ code: number, out: string }>}
 */
export async function runInGroup(cmd, argv, { cwd = process.cwd(), env = {}, capture = false, timeout = SUITE_TIMEOUT_MS } = {}) {
  const started = startInGroup(cmd, argv, { cwd, env, echo: !capture });
  const timer = setTimeout(() => {
    started.output.text += `\ntimed out after ${timeout / 1000} s\n`;
    started.killGroup();
  }, timeout);
  const { code } = await started.closed;
  clearTimeout(timer);
  return { code: code ?? 1, out: started.output.text };
}
