#!/usr/bin/env node
// `npm run verify -- <URL> [--dist DIR]`: is what is live at URL what was built into dist/?
// Fetches every file dist/audit.json lists (under URL's path, so a site served under a sub-path
// is checked there), compares each one's SHA-384 with the build's, and checks the headers the
// README promises (tools/headers.mjs). Prints one line per problem, then a summary.
// Exit 0: everything matches; 1: problems; 2: the site could not be checked at all (bad or
// unreachable URL, no local build). Node only, no browser; bounded: a timeout per request and a
// few requests at a time.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { HEADERS_FILE, headersFor, urlPathsOf } from './headers.mjs';
import { sri } from './site.mjs';

const USAGE = 'usage: npm run verify -- <http(s) URL of the deployed site> [--dist DIR]';
/** How long one request may take, headers and body. */
const TIMEOUT_MS = 10_000;
/** Requests in flight at once: enough to be quick, few enough for any host's rate limits. */
const CONCURRENCY = 4;

/** A reason to stop before checking anything: printed as one line, exit 2. */
class CannotVerify extends Error {}

/** Parses argv: one URL (http or https) and an optional `--dist DIR`. */
function parseArgs(argv) {
  let dist = 'dist';
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dist' && argv[i + 1]) dist = argv[++i];
    else rest.push(argv[i]);
  }
  if (rest.length !== 1) throw new CannotVerify(USAGE);
  let url;
  try {
    url = new URL(rest[0]);
  } catch {
    throw new CannotVerify(`not a URL: ${rest[0]} (${USAGE})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CannotVerify(`only http:// and https:// sites can be checked, not ${url.protocol}//`);
  // The site's base: every file is resolved under it (`https://host/my-app` means `/my-app/`).
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  url.search = '';
  url.hash = '';
  return { base: url, dist: path.resolve(dist) };
}

/** The local build's audit.json (its bytes and its parsed form). */
async function readLocalAudit(dist) {
  const file = path.join(dist, 'audit.json');
  try {
    const bytes = await fs.readFile(file);
    return { bytes, audit: JSON.parse(bytes.toString('utf8')) };
  } catch (error) {
    throw new CannotVerify(`cannot read ${file} (${error.code ?? error.message}); run \`npm run build\` first or pass --dist DIR`);
  }
}

/** GETs a URL with a timeout; resolves to { status, headers, body } or { error } (never rejects). */
async function fetchFile(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { 'Accept-Encoding': 'br, gzip' }, cache: 'no-store' });
    // fetch decodes br and gzip: the bytes hashed are the file's own, whatever the encoding.
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  } catch (error) {
    return { error: reasonOf(error) };
  }
}

/** One short phrase for a failed request: the system's error code where there is one. */
function reasonOf(error) {
  if (error?.name === 'TimeoutError') return `no answer within ${TIMEOUT_MS / 1000} s`;
  const cause = error?.cause;
  return cause?.code ?? cause?.message ?? error?.message ?? String(error);
}

/** The directives of a policy (Content-Security-Policy), spaces normalised. */
const policyDirectives = (value) => value.split(';').map((part) => part.trim().replace(/\s+/g, ' ')).filter(Boolean);

/** The directives of a comma-separated header (Cache-Control), lower-cased. */
const directives = (value) => value.split(',').map((part) => part.trim().toLowerCase()).filter(Boolean);

/**
 * Whether a sent header keeps a promise. Cache-Control: every promised directive is there (a host
 * may add more). CSP: every promised directive is there, spaces aside (a host may add more).
 * Content-Type: the media type, whatever the charset. Anything else: the same value.
 */
function keeps(name, promised, sent) {
  if (sent === null) return false;
  if (name === 'Cache-Control') return directives(promised).every((directive) => directives(sent).includes(directive));
  if (name === 'Content-Security-Policy') return policyDirectives(promised).every((directive) => policyDirectives(sent).includes(directive));
  if (name === 'Content-Type') return sent.split(';')[0].trim().toLowerCase() === promised;
  return sent.trim().toLowerCase() === promised.toLowerCase();
}

/** Checks one file at its URL; returns its problems as { kind, line }. */
async function checkFile(base, file) {
  const urlPath = urlPathsOf(file.path)[0];
  const url = new URL(urlPath.slice(1), base);
  const answer = await fetchFile(url);
  if (answer.error) return [{ kind: 'unreachable', line: `UNREACHABLE ${file.path}: ${answer.error} (${url.href})` }];
  // Netlify and Cloudflare Pages read _headers and never serve it; other hosts may.
  if (file.path === HEADERS_FILE && answer.status === 404) return [];
  if (answer.status !== 200) return [{ kind: 'missing', line: `MISSING ${file.path}: HTTP ${answer.status} (${url.href})` }];
  const problems = [];
  const sha384 = sri(answer.body);
  if (sha384 !== file.sha384) problems.push({ kind: 'altered', line: `ALTERED ${file.path}: ${answer.body.length} bytes with ${sha384}, dist/ has ${file.bytes} bytes with ${file.sha384}` });
  for (const [name, promised] of Object.entries(headersFor(urlPath))) {
    const sent = answer.headers.get(name);
    if (!keeps(name, promised, sent)) problems.push({ kind: 'header', line: `HEADER ${file.path}: ${name} is ${sent === null ? 'missing' : JSON.stringify(sent)}, expected ${JSON.stringify(promised)}` });
  }
  return problems;
}

/** Runs `job` on every item, at most `limit` at a time; resolves to the results in item order. */
async function mapLimited(items, limit, job) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await job(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The summary line: what was checked, and the problems by kind. */
function summary(base, audit, fileCount, problems) {
  const what = `${fileCount} files of version ${audit.version} (${audit.build} build) at ${base.href}`;
  if (!problems.length) return `verify: OK, ${what}: every SHA-384 matches dist/ and every promised header is sent`;
  const counts = {};
  for (const { kind } of problems) counts[kind] = (counts[kind] ?? 0) + 1;
  const names = { missing: 'missing', altered: 'altered', header: 'wrong header', unreachable: 'unreachable' };
  const parts = Object.entries(counts).map(([kind, n]) => `${n} ${names[kind]}`);
  return `verify: FAILED, ${problems.length} problem${problems.length === 1 ? '' : 's'} (${parts.join(', ')}) in ${what}`;
}

async function main() {
  const { base, dist } = parseArgs(process.argv.slice(2));
  const local = await readLocalAudit(dist);
  // The site's own audit.json first: if that cannot be fetched at all, nothing can.
  const first = await fetchFile(new URL('audit.json', base));
  if (first.error) throw new CannotVerify(`cannot reach ${base.href}: ${first.error}`);
  const files = [...local.audit.files, { path: 'audit.json', bytes: local.bytes.length, sha384: sri(local.bytes) }];
  const results = await mapLimited(files, CONCURRENCY, (file) => checkFile(base, file));
  const problems = results.flat();
  for (const { line } of problems) console.log(line);
  console.log(summary(base, local.audit, files.length, problems));
  return problems.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    // One line, never a stack: a CannotVerify says what to do; anything else is named briefly.
    console.error(`verify: ${error instanceof CannotVerify ? error.message : `unexpected error: ${error?.message ?? error}`}`);
    process.exit(2);
  },
);
