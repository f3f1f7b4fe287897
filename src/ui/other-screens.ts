// What the screens other than the one shown load, as this page can name it: their prerendered pages
// and the scripts loaded on use. A first visit asks for them beside the worker's script
// (src/worker-client/register-worker.ts), so the install finds them in the HTTP cache.
import routes from 'app:routes';
import { withBase } from '../contract/base';
import { lazyScriptUrls } from './lazy-import';
import { route } from './router';

/** The pages of the screens not shown and every script loaded on use (URLs under the base). */
export const otherScreensFiles = (): string[] => [
  ...routes.filter((screen) => screen.path !== route.getSnapshot()).map((screen) => withBase(screen.path)),
  ...lazyScriptUrls(),
];
