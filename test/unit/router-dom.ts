// A happy-dom window installed as the global DOM before src/ui/router.ts is evaluated (ES modules
// run in import order, so router.test.ts imports this file first).
import { Window } from 'happy-dom';

/** The test window; tests navigate and click in it. */
export const win = new Window({ url: 'https://app.example/' });
const g = globalThis as Record<string, unknown>;
// happy-dom's classes and bound methods stand in for the browser globals the router uses.
for (const key of ['window', 'document', 'location', 'history', 'HTMLAnchorElement', 'MouseEvent', 'PopStateEvent'])
  g[key] = (win as unknown as Record<string, unknown>)[key];
for (const key of ['addEventListener', 'removeEventListener', 'dispatchEvent', 'scrollTo'] as const) g[key] = win[key].bind(win);
