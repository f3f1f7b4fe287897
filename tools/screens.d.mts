// Types of tools/screens.mjs for the TypeScript tests.
import type { Plugin } from 'esbuild';

/** One screen: a top-level .tsx file of src/ui/screens/. */
export interface Screen {
  /** The file's name without `.tsx` (`index`, `status`). */
  name: string;
  /** Its route: `/` for index.tsx, else `/<name>/`. */
  path: string;
  /** Its `title` export: the <h1>, the nav link, the page title. */
  title: string;
  /** Its `navOrder` export: the nav lists screens by it, lowest first. */
  navOrder: number;
  /** Its path from the project's root (`src/ui/screens/status.tsx`). */
  file: string;
}
export const SCREENS_DIR: string;
export function listScreens(root: string): Screen[];
export function screensPlugin(root: string): Plugin;
