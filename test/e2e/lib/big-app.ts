// An app the size of the ones people build on the shell (media, fonts, images): 40 more files, 12 MB
// in all, built from a copy of the project, and the slow HTTP/1.1 link it is installed over, where
// every response keeps moving but takes longer in all than the stall limit, and one response
// stops moving halfway: a real stall.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Pace } from '../../../tools/serve/server.mjs';
import { buildWithStallLimit } from './builder';
import { copySources } from './site';

/** The media files the big app adds: 40 of 300 KB (12 MB), random bytes so no encoding shrinks them. */
export const MEDIA_FILES = Array.from({ length: 40 }, (_, index) => `/media/clip-${index}.bin`);
const MEDIA_BYTES = 300 * 1024;

/**
 * The big app's stall limit (package.json `stallSeconds`). The default 10 s would make a link where
 * every response takes longer than the limit a two-minute install per engine; at 1 s the same
 * shape (each response longer than the limit, forty of them through six connections) takes seconds.
 */
export const BIG_APP_STALL_SECONDS = 1;

/**
 * The link: each answer's body flows at 240 KB/s, so each media file takes 1.25 s in all, longer
 * than the stall limit, with a new 8 KB piece every 33 ms, far within it.
 */
export const BIG_APP_PACE: Pace = { delayMs: 0, bytesPerSecond: 240 * 1024 };

/** The media file whose first response stops halfway: the stall that must still be cut. */
export const STALLED_FILE = MEDIA_FILES[7];

/** Builds the big app from a copy of the project in `dest` (a temporary folder unless given); returns its dist/. */
export function buildBigApp(dest?: string): string {
  const project = copySources(dest);
  mkdirSync(path.join(project, 'static', 'media'), { recursive: true });
  for (const file of MEDIA_FILES) writeFileSync(path.join(project, 'static', file), randomBytes(MEDIA_BYTES));
  return buildWithStallLimit(project, BIG_APP_STALL_SECONDS);
}

/**
 * A preview-server intercept that answers the first GET of STALLED_FILE with its headers and half
 * its body, then nothing more; later GETs get the server's paced answer. `end()` closes it.
 */
export function stallOnce(dist: string) {
  let held: ServerResponse | undefined;
  return {
    end: () => held?.destroy(),
    intercept: (req: IncomingMessage, res: ServerResponse): boolean => {
      if (req.method !== 'GET' || req.url !== STALLED_FILE || held) return false;
      held = res;
      const bytes = readFileSync(path.join(dist, STALLED_FILE));
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': bytes.length, 'Cache-Control': 'no-cache' });
      res.write(bytes.subarray(0, bytes.length >> 1));
      return true;
    },
  };
}
