// Types of the parts of tools/site.mjs that the TypeScript tests use.
import type { BuildOptions } from 'esbuild';

export interface Identity {
  __APP_NAME__: string;
  __APP_TITLE__: string;
  __BASE__: string;
}
export function appIdentity(pkg: { name?: unknown; displayName?: unknown }, base?: string): Identity;
/** The esbuild options of the page bundle, as the build uses them. */
export function appOptions(opts: { root: string; preact: boolean; dev: boolean; identity: Identity }): BuildOptions;
export function sri(buf: Uint8Array): string;
