// What the dev loop's server (tools/serve/live-reload.mjs) and its pages say to each other. Dev
// builds only: the production build never imports src/dev/.

/** The server's events (esbuild's live-reload path): `change` after a good rebuild, `build-error` after a failed one. */
export const CHANGE_EVENTS = '/esbuild';

/** Where a page posts what its reload could not put back, for the terminal. */
export const REPORT_PATH = '/esbuild/report';

/**
 * The event the dev client fires on window before a reload; the app cancels it when it reloads
 * itself, keeping the person's work (src/dev/keep-work.ts).
 */
export const DEV_RELOAD_EVENT = 'offline-shell-dev-reload';

/** A problem shown in the page: a failed build (with its place and code frame) or an uncaught error. */
export interface DevProblem {
  kind: 'build' | 'runtime';
  message: string;
  /** `src/ui/screens/help.tsx:4:12`, or '' when the problem has no place. */
  location: string;
  /** The lines around the place, numbered, with a caret under the column; or a stack trace. */
  frame: string;
}
