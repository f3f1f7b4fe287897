// Types of tools/serve.mjs for the TypeScript tests.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export type Intercept = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
export interface PreviewServer {
  server: Server;
  log: { method: string; url: string; revalidation?: boolean }[];
  setRoot(dir: string): void;
}
export interface Listening extends PreviewServer {
  url: string;
  close(): Promise<void>;
}
/** A slow network for the bench: each answer waits delayMs, then its body flows at bytesPerSecond. */
export interface Pace {
  delayMs: number;
  bytesPerSecond: number;
}
export function safePath(target: string): string | number;
export function preferredEncoding(acceptEncoding: string | undefined, variants: Record<string, unknown>): 'br' | 'gzip' | undefined;
/** Dev: the site's files in memory (site path -> contents), served instead of `root`. */
export type MemoryFiles = () => Map<string, Buffer>;
export function createPreviewServer(opts: { root: string; files?: MemoryFiles; intercept?: Intercept; pace?: Pace }): PreviewServer;
export function listen(opts: { root: string; files?: MemoryFiles; host?: string; port?: number; intercept?: Intercept; pace?: Pace }): Promise<Listening>;
