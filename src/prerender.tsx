// Build time only (tools/pipeline/prerender.mjs bundles this for Node): renders a route's HTML from the
// same components the page hydrates. Stores show their server snapshots, which hold nothing of
// any device, so the HTML is the same for every visitor and every build of the same sources.
import { renderToString } from 'react-dom/server';
import { App } from './ui/App';
import { prerenderRoute } from './ui/router';

/** The HTML inside #root for the route `path` (with its trailing slash; '/404' for 404.html). */
export function renderRoute(path: string): string {
  prerenderRoute(path);
  return renderToString(<App />);
}
