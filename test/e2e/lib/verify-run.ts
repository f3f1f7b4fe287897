// What the verify tests share: the tool run as a user runs it, and the build they verify.
import { spawn } from 'node:child_process';
import type { HostKind } from './hosts';
import { audit, site } from './site';

/** Runs the verify tool as a user does (asynchronously: the preview server answers in this process). */
export function verify(
  url: string,
  dist: string,
  ...options: string[]
): Promise<{ code: number | null; stdout: string[]; stderr: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['tools/verify.mjs', url, '--dist', dist, ...options], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const lines = (text: string) => text.split('\n').filter(Boolean);
    child.on('close', (code) => resolve({ code, stdout: lines(stdout), stderr: lines(stderr) }));
  });
}

export const VERIFY_HOSTS: HostKind[] = ['preview', 'nginx', 'pages'];
/**
 * The build's precompressed copies each host sends: the preview server both; Debian's nginx the
 * .gz (gzip_static; it has no brotli module); Pages neither: it compresses the file itself, gzip
 * or br as asked (measured on wrangler pages dev), so an altered copy never reaches anyone there.
 */
export const SENDS_COPIES: Record<HostKind, ('gzip' | 'br')[]> = { preview: ['gzip', 'br'], nginx: ['gzip'], python: [], pages: [] };
export const dist = site('react', 'v1');
export const fileCount = audit(dist).files.length + 1; // and audit.json itself
/** Files a host serves: all, but `_headers` on Pages, which reads it and never serves it. */
export const servedCount = (kind: HostKind) => fileCount - (kind === 'pages' ? 1 : 0);
