/** True in `npm run dev` builds (esbuild `define`): no service worker, nothing stale while developing. */
declare const __DEV__: boolean;
