// esbuild's live-reload protocol, served by the preview server in dev, with what our dev client
// adds to it (src/dev/protocol.ts): a failed build's problem, shown in the page until a good
// build reloads it, and the page's report of what its reload could not put back.

/** The path the page listens on for rebuilds: esbuild's own live-reload convention. */
const CHANGE_EVENTS = '/esbuild';

/** Where a page posts what its reload could not put back (src/dev/keep-work.ts). */
const REPORT_PATH = '/esbuild/report';

/** The most a report may hold: a few hundred field keys. */
const REPORT_LIMIT = 64 * 1024;

/**
 * A problem shown in the page (src/dev/protocol.ts DevProblem).
 * @typedef {{ kind: 'build' | 'runtime', message: string, location: string, frame: string }} DevProblem
 */

/**
 * esbuild's live-reload protocol on the preview server: pages open an EventSource on /esbuild
 * and reload on its `change` event; a failed build is sent as `build-error`, to open pages and to
 * each page that connects while it stands. Returns the server's intercept, notify() and fail().
 * @param {{ say?: (line: string) => void }} [options] where the pages' reports are printed
 */
export function liveReload({ say = console.log } = {}) {
  /** @type {Set<import('node:http').ServerResponse>} */
  const clients = new Set();
  /** The failed build's problem while it stands. @type {DevProblem | null} */
  let problem = null;
  /** @param {import('node:http').ServerResponse} client @param {DevProblem} shown */
  const sendProblem = (client, shown) => client.write(`event: build-error\ndata: ${JSON.stringify(shown)}\n\n`);
  return {
    /** @type {import('./server.mjs').Intercept} */
    intercept(request, response) {
      if (request.url === REPORT_PATH && request.method === 'POST') {
        readReport(request, say);
        response.writeHead(204).end();
        return true;
      }
      if (request.url !== CHANGE_EVENTS) return false;
      response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
      response.write(': connected\n\n');
      if (problem) sendProblem(response, problem);
      clients.add(response);
      request.on('close', () => clients.delete(response));
      return true;
    },
    /** Tells every open page to reload: the build is good (again). */
    notify() {
      problem = null;
      for (const client of clients) client.write('event: change\ndata: {}\n\n');
    },
    /**
     * Shows a failed build in every open page, and in each that opens until the next good build.
     * @param {DevProblem} failed
     */
    fail(failed) {
      problem = failed;
      for (const client of clients) sendProblem(client, failed);
    },
  };
}

/**
 * Prints a page's report of what its reload on save could not put back, in one line.
 * @param {import('node:http').IncomingMessage} request
 * @param {(line: string) => void} say
 */
function readReport(request, say) {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => {
    body += chunk;
    if (body.length > REPORT_LIMIT) request.destroy();
  });
  request.on('end', () => {
    let report;
    try {
      report = JSON.parse(body);
    } catch {
      return;
    }
    const lost = Array.isArray(report?.notPutBack) ? report.notPutBack.map(String) : [];
    const parts = [];
    if (lost.length) parts.push(`${lost.length === 1 ? 'a field' : `${lost.length} fields`} not put back (${lost.join('; ')})`);
    if (typeof report?.focusLost === 'string') parts.push(`the focused field #${report.focusLost} is gone`);
    if (parts.length)
      say(`dev reload of ${String(report.path)}: ${parts.join(', ')}: the screen changed, so what was typed there is not on it any more`);
  });
}
