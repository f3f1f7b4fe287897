// esbuild's live-reload protocol, served by the preview server in dev.

/** The path the page listens on for rebuilds: esbuild's own live-reload convention. */
const CHANGE_EVENTS = '/esbuild';

/**
 * esbuild's live-reload protocol on the preview server: pages open an EventSource on /esbuild
 * and reload on its `change` event. Returns the server's intercept and notify().
 */
export function liveReload() {
  /** @type {Set<import('node:http').ServerResponse>} */
  const clients = new Set();
  return {
    /** @type {import('./server.mjs').Intercept} */
    intercept(request, response) {
      if (request.url !== CHANGE_EVENTS) return false;
      response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
      response.write(': connected\n\n');
      clients.add(response);
      request.on('close', () => clients.delete(response));
      return true;
    },
    /** Tells every open page to reload. */
    notify() {
      for (const client of clients) client.write('event: change\ndata: {}\n\n');
    },
  };
}
