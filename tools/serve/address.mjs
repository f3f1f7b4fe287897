// Where the preview server and the dev loop listen: HOST and PORT from the environment, checked,
// and the path the site is served under (`--base`).
import { SECURITY_HEADERS } from '../headers.mjs';

/** A problem with serving, not with the build: build.mjs prints it as one line after "cannot serve:". */
export class ServeError extends Error {
  /** @override */
  name = 'ServeError';
}

/**
 * The host and port to listen on: HOST (127.0.0.1) and PORT (8080; 0 picks a free one). A PORT
 * that is no port number is a one-line ServeError, before anything is built.
 * @param {NodeJS.ProcessEnv} env
 * @returns {{ host: string, port: number }}
 */
export function serveAddress(env) {
  const port = env.PORT ?? '8080';
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535)
    throw new ServeError(`PORT must be a whole number from 0 to 65535 (0 picks a free one), not ${JSON.stringify(port)}`);
  return { host: env.HOST || '127.0.0.1', port: Number(port) };
}

/**
 * An intercept that serves the site under `base` as a host does: `/my-app/x` is the site's `/x`,
 * `/my-app` is redirected to `/my-app/`, and any other path is a 404 that names the base.
 * `first` (the dev loop's live reload) answers before, at its own path.
 * @param {string} base
 * @param {import('./server.mjs').Intercept} [first]
 * @returns {import('./server.mjs').Intercept | undefined}
 */
export function servedUnder(base, first) {
  if (base === '/') return first;
  return async (request, response) => {
    if (first && (await first(request, response))) return true;
    const url = request.url ?? '/';
    if (url.startsWith(base)) {
      request.url = `/${url.slice(base.length)}`;
      return false;
    }
    const pathname = url.split(/[?#]/, 1)[0];
    if (pathname === base.slice(0, -1)) {
      response.writeHead(301, { ...SECURITY_HEADERS, Location: base + url.slice(pathname.length), 'Cache-Control': 'no-cache' }).end();
      return true;
    }
    response
      .writeHead(404, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' })
      .end(`Not found: this server serves the site under ${base}\n`);
    return true;
  };
}
