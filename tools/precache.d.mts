// Types of tools/precache.mjs for the TypeScript tests.
export interface FileEntry {
  path: string;
  sha384: string;
}
export function urlOf(path: string): string;
export function precacheManifest(entries: FileEntry[]): Record<string, string>;
export function buildServiceWorker(opts: { root: string; entries: FileEntry[]; prefix: string; networkOnly?: string[]; killSwitch?: boolean }): Promise<{ worker: Buffer; manifest: Buffer; version: string }>;
