// Types of tools/serve.mjs for the TypeScript tests.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export type Intercept = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
export interface PreviewServer {
  server: Server;
  log: { method: string; url: string }[];
  setRoot(dir: string): void;
}
export interface Listening extends PreviewServer {
  url: string;
  close(): Promise<void>;
}
export function safePath(target: string): string | number;
export function createPreviewServer(opts: { root: string; intercept?: Intercept }): PreviewServer;
export function listen(opts: { root: string; host?: string; port?: number; intercept?: Intercept }): Promise<Listening>;
