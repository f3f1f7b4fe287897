#!/usr/bin/env node
// `npm run verify -- <URL> [--dist DIR]`: is what is live at URL what was built into dist/?
// Fetches every file dist/audit.json lists (under URL's path, so a site served under a sub-path
// is checked there) three times, as identity, gzip and brotli (a host may keep a precompressed
// copy beside each file and send it instead: each copy is a deploy of its own), compares each
// decoded copy's SHA-384 with the build's, and checks the headers the README promises
// (tools/headers.mjs). Prints one line per problem, then a summary.
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
/**
 * Each file is asked for once per encoding, so that every representation a host can send is
 * checked: nginx's gzip_static sends `file.gz` to whoever accepts gzip, and `file` to the rest.
 */
const ENCODINGS = ['identity', 'gzip', 'br'];

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

/**
 * GETs a URL accepting only `encoding`, with a timeout; resolves to { status, headers, encoding,
 * body } or { error } (never rejects). `encoding` is what the host sent (Content-Encoding), which
 * may not be what was asked for: a host without a copy in that encoding sends the file itself.
 */
async function fetchFile(url, encoding = 'identity') {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { 'Accept-Encoding': encoding }, cache: 'no-store' });
    // fetch decodes br and gzip: the bytes hashed are the file's own, whatever the encoding.
    const body = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, encoding: response.headers.get('content-encoding') ?? 'identity', body };
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

/**
 * Checks one file at its URL in every encoding; resolves to its problems as { kind, line } and the
 * encodings the host sent it in. A file no request finds is one MISSING (or UNREACHABLE) line; a
 * copy that differs from the build is one ALTERED line naming the encoding the host sent.
 */
async function checkFile(base, file) {
  const urlPath = urlPathsOf(file.path)[0];
  const url = new URL(urlPath.slice(1), base);
  const answers = [];
  for (const asked of ENCODINGS) answers.push({ asked, ...(await fetchFile(url, asked)) });
  const found = answers.filter((answer) => !answer.error && answer.status === 200);
  const result = (problems) => ({ problems, sent: [...new Set(found.map((answer) => answer.encoding))] });
  if (answers.every((answer) => answer.error)) return result([{ kind: 'unreachable', line: `UNREACHABLE ${file.path}: ${answers[0].error} (${url.href})` }]);
  // Netlify and Cloudflare Pages read _headers and never serve it; other hosts may.
  if (file.path === HEADERS_FILE && !found.length) return result([]);
  if (!found.length) return result([{ kind: 'missing', line: `MISSING ${file.path}: HTTP ${answers.find((answer) => !answer.error).status} (${url.href})` }]);
  const problems = [];
  // Some encodings found and some not: a copy the host serves to some browsers only is gone.
  for (const answer of answers.filter((candidate) => !found.includes(candidate))) {
    const reason = answer.error ?? `HTTP ${answer.status}`;
    problems.push({ kind: answer.error ? 'unreachable' : 'missing', line: `${answer.error ? 'UNREACHABLE' : 'MISSING'} ${file.path} (asked for ${answer.asked}): ${reason} (${url.href})` });
  }
  const checked = new Set();
  const reported = new Set();
  for (const answer of found) {
    // Asked for br, a host without brotli sends the file itself: that copy is checked once.
    if (checked.has(answer.encoding)) continue;
    checked.add(answer.encoding);
    const sha384 = sri(answer.body);
    // The same wrong bytes in a second encoding are the altered file compressed on the fly (nginx's
    // `gzip on` when no .gz is left): one line for them.
    if (sha384 === file.sha384 || reported.has(sha384)) continue;
    reported.add(sha384);
    problems.push({ kind: 'altered', line: `ALTERED ${file.path} (${answer.encoding}): ${answer.body.length} bytes with ${sha384}, dist/ has ${file.bytes} bytes with ${file.sha384}` });
  }
  // The promised headers, on the file itself (the identity answer when there is one).
  for (const [name, promised] of Object.entries(headersFor(urlPath))) {
    const sent = found[0].headers.get(name);
    if (!keeps(name, promised, sent)) problems.push({ kind: 'header', line: `HEADER ${file.path}: ${name} is ${sent === null ? 'missing' : JSON.stringify(sent)}, expected ${JSON.stringify(promised)}` });
  }
  return result(problems);
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

/** How many files the host sent in each encoding: `17 identity, 13 gzip, 13 br`. */
function encodingCounts(results) {
  return ENCODINGS.map((encoding) => `${results.filter((result) => result.sent.includes(encoding)).length} ${encoding}`).join(', ');
}

/** The summary line: what was checked, and the problems by kind. */
function summary(base, audit, results, problems) {
  const what = `${results.length} files of version ${audit.version} (${audit.build} build) at ${base.href}`;
  if (!problems.length) return `verify: OK, ${what}: every SHA-384 matches dist/ in every encoding sent (${encodingCounts(results)}) and every promised header is sent`;
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
  const problems = results.flatMap((result) => result.problems);
  for (const { line } of problems) console.log(line);
  console.log(summary(base, local.audit, results, problems));
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
