// Cloudflare Pages' own runtime on this machine: `wrangler pages dev` (npm wrangler, which runs
// workerd, Cloudflare's runtime, from a binary in an npm package; no network needed). npm test
// installs the pinned version into its cache (test/harness/setup.mjs) and names it in WRANGLER_PATH.
// wrangler prints one line per request it answered, which is the host's request log.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { startInGroup, stopInGroup, type GroupChild } from '../../harness/process-group.mjs';
import { accepting, freePort } from './processes';
import { sleep, until } from './wait';

/** The launcher `npm test` installed (test/harness/setup.mjs ensureWrangler()). */
const WRANGLER = process.env.WRANGLER_PATH ?? '';

/**
 * The compatibility date given to workerd. Without one, wrangler asks for today's, which a workerd
 * older than today refuses; this is one this wrangler's workerd (1.20260426) accepts.
 */
const COMPATIBILITY_DATE = '2026-05-01';

/** How long a start may take: about 1.5 s measured here, with room for a cold disk and a busy machine. */
const START_LIMIT_MS = 30_000;

/** One request as wrangler logs it: `[wrangler:info] GET /status/ 200 OK (5ms)` (the path without its query). */
const REQUEST_LINE = /^\[wrangler:info\] ([A-Z]+) (\S+) \d{3}\b/;

/** A running `wrangler pages dev`. */
export interface Wrangler {
  stop(): Promise<void>;
}

/** How many times a start that found a port taken is tried, each with a new inspector port. */
const STARTS_WHEN_PORT_TAKEN = 3;

/** A start that failed because one of its ports was taken when workerd came to bind it. */
class PortTaken extends Error {}

/**
 * Starts `wrangler pages dev root` on the loopback `port`, in a process group of its own (it runs
 * workerd as a child), with its state, settings and logs under `prefix` and no banner, update
 * check or metrics. Each request it logs is appended to `log`. Resolves once it says it is ready
 * and accepts connections.
 *
 * A port can be taken before workerd binds it, a second or so after the start: the inspector's,
 * fresh from freePort(), or on a restart the site's, free since the old wrangler stopped. Another
 * test file running beside this one starts servers too (seen once in a clean-clone run, on a
 * restart for a deploy: "Address already in use", and the rest of the suite failed with it). Such
 * a start is tried again, with a new inspector port and the same `port`: the origin must not change.
 */
export async function startWrangler(root: string, port: number, prefix: string, log: { method: string; url: string }[]): Promise<Wrangler> {
  if (!WRANGLER) throw new Error('WRANGLER_PATH is not set: run the end-to-end tests with `npm test -- e2e`, which installs wrangler');
  if (!existsSync(WRANGLER))
    throw new Error(
      `wrangler not found at ${WRANGLER}: npm test installs it into its cache (test/harness/setup.mjs), or set WRANGLER_PATH`,
    );
  for (let attempt = 1; ; attempt++) {
    try {
      return await startWranglerOnce(root, port, prefix, log);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === STARTS_WHEN_PORT_TAKEN) throw error;
      console.log(`  ${error.message}; starting it again (${attempt + 1} of ${STARTS_WHEN_PORT_TAKEN})`);
      await sleep(500);
    }
  }
}

/** One try of startWrangler(); rejects with PortTaken when wrangler says a port it wanted is in use. */
async function startWranglerOnce(root: string, port: number, prefix: string, log: { method: string; url: string }[]): Promise<Wrangler> {
  // Its devtools inspector listens on 9229 unless told otherwise: two wranglers at once (two test
  // files running side by side) would fight over it, and the second exits with "Address already in use".
  const inspectorPort = await freePort();
  const args = [
    'pages',
    'dev',
    root,
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--inspector-port',
    String(inspectorPort),
    `--compatibility-date=${COMPATIBILITY_DATE}`,
  ];
  const started = startInGroup(process.execPath, [WRANGLER, ...args], {
    cwd: prefix,
    env: {
      WRANGLER_HIDE_BANNER: 'true',
      WRANGLER_SEND_METRICS: 'false',
      WRANGLER_SEND_ERROR_REPORTS: 'false',
      XDG_CONFIG_HOME: path.join(prefix, 'config'),
      WRANGLER_LOG_PATH: path.join(prefix, 'logs'),
      FORCE_COLOR: '0',
    },
  });
  let partial = '';
  let ready = false;
  const onData = (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines.map((text) => stripVTControlCharacters(text).trim())) {
      if (line.includes(`Ready on http://127.0.0.1:${port}`)) ready = true;
      const request = REQUEST_LINE.exec(line);
      if (request) log.push({ method: request[1], url: request[2] });
    }
  };
  started.child.stdout.on('data', onData);
  started.child.stderr.on('data', onData);
  const exited = () => started.child.exitCode !== null || started.child.signalCode !== null;
  await until(`wrangler pages dev to listen on port ${port}`, async () => exited() || (ready && (await accepting(port))), START_LIMIT_MS);
  if (exited()) {
    const reason = `wrangler pages dev exited (${started.child.exitCode}): ${lastLines(started)}`;
    throw reason.includes('Address already in use') ? new PortTaken(reason) : new Error(reason);
  }
  return { stop: () => stopWrangler(started, port) };
}

/**
 * What wrangler said when it failed, for an error message: its first `[ERROR]` line (a crash of its
 * esbuild service follows it with a goroutine dump), or its last lines.
 */
function lastLines(started: GroupChild): string {
  const lines = stripVTControlCharacters(started.output.text).trim().split('\n');
  return lines.find((line) => line.includes('[ERROR]'))?.trim() ?? lines.slice(-5).join(' | ');
}

/** Ends wrangler and whatever of its group is left; resolves once nothing accepts on its port. */
async function stopWrangler(started: GroupChild, port: number): Promise<void> {
  await stopInGroup(started, 5000);
  // workerd is wrangler's child: a group kill takes it too, should it outlive wrangler.
  started.killGroup();
  await until(`port ${port} to refuse connections`, async () => !(await accepting(port)), 5000);
}
