// Types of tools/worker.mjs for the TypeScript tests.
export interface FileEntry {
  path: string;
  sha384: string;
}
export function urlOf(path: string): string;
export function networkOnlyOf(pkg: { networkOnly?: unknown }): string[];
export function precacheManifest(entries: FileEntry[]): Record<string, string>;
export function buildServiceWorker(opts: {
  root: string;
  entries: FileEntry[];
  appDefines: Record<string, string>;
  networkOnly?: string[];
  killSwitch?: boolean;
}): Promise<{ worker: Buffer; manifest: Buffer; version: string }>;
