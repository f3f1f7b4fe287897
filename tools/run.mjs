// One way to run a child process for the test runners (tools/test.mjs, tools/engines.mjs): in a
// process group of its own, so a timeout, a crash or a stopped runner takes the browsers, drivers
// and Xvfb it started down with it.
import { spawn } from 'node:child_process';

/** How long one suite or test file may run before it is stopped. */
export const SUITE_TIMEOUT_MS = 12 * 60_000;

/**
 * Runs `cmd argv` in its own process group, streaming its output (or only capturing it, with
 * `capture`); resolves to { code, out } (out: stdout and stderr) once it and its group are gone.
 */
export function runInGroup(cmd, argv, { cwd = process.cwd(), env = {}, capture = false, timeout = SUITE_TIMEOUT_MS } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    const onData = (stream) => (data) => {
      out += data;
      if (!capture) stream.write(data);
    };
    child.stdout.on('data', onData(process.stdout));
    child.stderr.on('data', onData(process.stderr));
    const killGroup = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    };
    // A stopped runner takes the group down with it.
    process.on('exit', killGroup);
    const timer = setTimeout(() => {
      out += `\ntimed out after ${timeout / 1000} s\n`;
      killGroup();
    }, timeout);
    child.on('close', (code) => {
      clearTimeout(timer);
      // Anything the test left running (a browser after a crash) goes with its group.
      killGroup();
      process.off('exit', killGroup);
      resolve({ code: code ?? 1, out });
    });
  });
}
