// Child processes the tests start (hosts, browser drivers): a free port for them, a clean stop,
// and pause/resume for a server that can be stopped and started again on its port.
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listens on right now (the kernel's pick for port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Ends a child process; resolves once it has exited (its sockets are closed by then). It may have exited already. */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill();
  });
}

/** A server process that a test can stop ("the server is down") and start again on the same port. */
export interface Restartable {
  pause(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** pause/resume/close over `running`, which `restart()` replaces with a new process on the same port. */
export function restartable(running: ChildProcess, restart: () => Promise<ChildProcess>): Restartable {
  let child = running;
  let paused = false;
  return {
    async pause() {
      paused = true;
      await stopProcess(child);
    },
    async resume() {
      if (!paused) return;
      child = await restart();
      paused = false;
    },
    close: () => stopProcess(child),
  };
}

/** Whether something accepts connections on the loopback port. */
export const accepting = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
