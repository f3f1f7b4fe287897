// Screens whose code is a chunk of its own (production builds: every screen but the one at `/`),
// loaded the first time they are shown, checked like every script of the page (src/ui/lazy-import.ts).
import screens, { type LazyScreen } from 'app:screens';
import type { FunctionComponent } from 'react';
import { importChecked } from './lazy-import';

/** The lazily loaded screens whose code is here, by route path. */
const loaded = new Map<string, FunctionComponent>();

const isLazy = (screen: FunctionComponent | LazyScreen): screen is LazyScreen => typeof screen !== 'function';

/** Whether `path` is the route of one of the app's screens. */
export const isScreen = (path: string): boolean =>
  // biome-ignore lint/suspicious/noPrototypeBuiltins: Object.hasOwn is Safari 15.4+, beyond the minimum engines (tools/pipeline/targets.mjs).
  Object.prototype.hasOwnProperty.call(screens, path);

/** The component of route `path` when its code is here; undefined for a screen not loaded (yet) and for a path that is no screen. */
export function screenOf(path: string): FunctionComponent | undefined {
  if (!isScreen(path)) return undefined;
  const screen = screens[path];
  return isLazy(screen) ? loaded.get(path) : screen;
}

/**
 * Resolves once the code of route `path` is here: at once for a screen in the page's own script
 * (and for a path that is no screen). Rejects when a script of the screen cannot be loaded or its
 * bytes fail their hash: then none of it runs.
 */
export async function loadScreen(path: string): Promise<void> {
  if (!isScreen(path) || loaded.has(path)) return;
  const screen = screens[path];
  if (!isLazy(screen)) return;
  loaded.set(path, (await importChecked(screen.source, screen.load)).default);
}
