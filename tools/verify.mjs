#!/usr/bin/env node
// `npm run verify -- <URL> [--dist DIR] [--bytes-only]`: is what is live at URL what was built into dist/?
// Fetches every file dist/audit.json lists (under URL's path, so a site served under a sub-path
// is checked there) three times, as identity, gzip and brotli (a host may keep a precompressed
// copy beside each file and send it instead: each copy is a deploy of its own), compares each
// decoded copy's SHA-384 with the build's, and checks what a browser checks before it uses a file:
// its Content-Type for its kind (a module script or the service worker of any other type never
// runs), and the headers the README promises (tools/headers.mjs), among them `nosniff` and exactly
// one Content-Security-Policy, the table's, which each page's own <meta> policy must match. A
// redirect is followed only to another URL of the same file on the same origin (Cloudflare Pages
// answers `/404.html` with a 308 to `/404`): there the bytes and headers a visitor gets are
// checked; and the worker's scope (the build's base is the URL's path). One line per problem, then
// a summary; `--bytes-only` makes headers and types warnings (tools/verify/bytes-only.mjs).
// Exit 0: everything matches; 1: problems; 2: the site could not be checked at all (bad or
// unreachable URL, no local build). Node only, no browser; bounded: a timeout per request and a
// few requests at a time.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { HEADERS_FILE, headersFor, urlPathsOf } from './headers.mjs';
import { DEV_WORKER_MARK } from './serve/dev-worker.mjs';
import { sri } from './sri.mjs';
import { PROBLEM_NAMES, policyProblem, typeProblem } from './verify/browser-checks.mjs';
import { HEADER_KINDS, scopeProblem, warningLines } from './verify/bytes-only.mjs';

const USAGE = 'usage: npm run verify -- <http(s) URL of the deployed site> [--dist DIR] [--bytes-only]';
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

/**
 * One file of the local build as audit.json lists it.
 * @typedef {import('./pipeline/audit.mjs').AuditEntry} AuditEntry
 */
/** @typedef {import('./pipeline/site.mjs').Audit} Audit */
/** @typedef {import('./verify/browser-checks.mjs').Problem} Problem */

/**
 * Parses argv: one URL (http or https) and an optional `--dist DIR`.
 * @param {string[]} argv
 */
function parseArgs(argv) {
  let dist = 'dist';
  let bytesOnly = false;
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dist' && argv[i + 1]) dist = argv[++i];
    else if (argv[i] === '--bytes-only') bytesOnly = true;
    else rest.push(argv[i]);
  }
  if (rest.length !== 1) throw new CannotVerify(USAGE);
  let url;
  try {
    url = new URL(rest[0]);
  } catch {
    throw new CannotVerify(`not a URL: ${rest[0]} (${USAGE})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CannotVerify(`only http:// and https:// sites can be checked, not ${url.protocol}//`);
  // The site's base: every file is resolved under it (`https://host/my-app` means `/my-app/`).
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  url.search = '';
  url.hash = '';
  return { base: url, dist: path.resolve(dist), bytesOnly };
}

/**
 * The local build's audit.json (its bytes and its parsed form).
 * @param {string} dist
 * @returns {Promise<{ bytes: Buffer, audit: Audit }>}
 */
async function readLocalAudit(dist) {
  const file = path.join(dist, 'audit.json');
  try {
    const bytes = await fs.readFile(file);
    return { bytes, audit: JSON.parse(bytes.toString('utf8')) };
  } catch (caught) {
    const error = /** @type {NodeJS.ErrnoException} */ (caught);
    throw new CannotVerify(`cannot read ${file} (${error.code ?? error.message}); run \`npm run build\` first or pass --dist DIR`);
  }
}

/**
 * A request for a file asking for one encoding, and what the host answered: its status, headers,
 * the encoding it sent (Content-Encoding, which may not be the one asked for: a host without a
 * copy in that encoding sends the file itself) and the decoded body; `location` where it answered
 * with a redirect it was not followed, and `redirectedTo` (a path) where it was.
 * @typedef {{ asked: string, error?: undefined, status: number, headers: Headers, encoding: string, body: Buffer, location?: string, redirectedTo?: string }} Answered
 */
/**
 * A request that got no answer, and why.
 * @typedef {{ asked: string, error: string }} Unanswered
 */
/** @typedef {Answered | Unanswered} Answer */

/** The statuses of a redirect with a Location to follow (RFC 9110 15.4). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs a URL accepting only `encoding`, with a timeout; never rejects. A redirect is followed,
 * once, only when it leads to one of `samePaths` on the URL's own origin (the file's other URLs:
 * Cloudflare Pages' pretty URLs); any other is answered as it came, with its Location.
 * @param {URL} url
 * @param {string} asked
 * @param {string[]} [samePaths] URL paths of the same file
 * @returns {Promise<Answer>}
 */
async function fetchFile(url, asked, samePaths = []) {
  try {
    const answer = await request(url, asked);
    if (!answer.location) return answer;
    const target = new URL(answer.location, url);
    if (target.origin !== url.origin || target.search || !samePaths.includes(target.pathname)) return answer;
    return { ...(await request(target, asked)), redirectedTo: target.pathname };
  } catch (error) {
    return { asked, error: reasonOf(error) };
  }
}

/**
 * One GET accepting only `encoding`, redirects not followed (a redirect's Location is in the answer).
 * @param {URL} url
 * @param {string} asked
 * @returns {Promise<Answered>}
 */
async function request(url, asked) {
  const response = await fetch(url, {
    signal: AbortSignal.timeout(TIMEOUT_MS),
    headers: { 'Accept-Encoding': asked },
    cache: 'no-store',
    redirect: 'manual',
  });
  // fetch decodes br and gzip: the bytes hashed are the file's own, whatever the encoding.
  const body = Buffer.from(await response.arrayBuffer());
  const location = REDIRECTS.has(response.status) ? (response.headers.get('location') ?? undefined) : undefined;
  return {
    asked,
    status: response.status,
    headers: response.headers,
    encoding: response.headers.get('content-encoding') ?? 'identity',
    body,
    location,
  };
}

/**
 * An HTTP status as a problem line says it: with the redirect's target when it is one.
 * @param {Answered} answer
 */
const statusOf = (answer) => `HTTP ${answer.status}${answer.location ? ` to ${answer.location}` : ''}`;

/**
 * One short phrase for a failed request: the system's error code where there is one.
 * @param {unknown} caught
 * @returns {string}
 */
function reasonOf(caught) {
  const error = /** @type {{ name?: string, message?: string, cause?: { code?: string, message?: string } } | undefined} */ (caught);
  if (error?.name === 'TimeoutError') return `no answer within ${TIMEOUT_MS / 1000} s`;
  const cause = error?.cause;
  return cause?.code ?? cause?.message ?? error?.message ?? String(error);
}

/**
 * The directives of a comma-separated header (Cache-Control), lower-cased.
 * @param {string} value
 */
const directives = (value) =>
  value
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);

/**
 * Whether a sent header keeps a promise. Cache-Control: every promised directive is there (a host
 * may add more). Anything else: the same value. (Content-Type and Content-Security-Policy have
 * checks of their own: typeProblem() and policyProblem().)
 * @param {string} name
 * @param {string} promised
 * @param {string | null} sent
 */
function keeps(name, promised, sent) {
  if (sent === null) return false;
  if (name === 'Cache-Control') return directives(promised).every((directive) => directives(sent).includes(directive));
  return sent.trim().toLowerCase() === promised.toLowerCase();
}

/**
 * What checking one file found: its problems, the encodings the host sent it in, and the path it
 * was served at when the host redirected there.
 * @typedef {{ path: string, problems: Problem[], sent: string[], redirectedTo?: string }} FileResult
 */

/**
 * Checks one file at its URL in every encoding. A file no request finds is one MISSING (or
 * UNREACHABLE) line; a copy that differs from the build is one ALTERED line naming the encoding
 * the host sent.
 * @param {URL} base
 * @param {{ path: string, bytes: number, sha384: string }} file
 * @returns {Promise<FileResult>}
 */
async function checkFile(base, file) {
  const [urlPath, ...otherPaths] = urlPathsOf(file.path);
  const url = new URL(urlPath.slice(1), base);
  const samePaths = otherPaths.map((other) => new URL(other.slice(1), base).pathname);
  /** @type {Answer[]} */
  const answers = [];
  for (const asked of ENCODINGS) answers.push(await fetchFile(url, asked, samePaths));
  const found = answers.filter(isFound);
  /** @param {Problem[]} problems */
  const result = (problems) => ({
    path: file.path,
    problems,
    sent: [...new Set(found.map((answer) => answer.encoding))],
    redirectedTo: found.find((answer) => answer.redirectedTo)?.redirectedTo,
  });
  const answered = answers.filter(isAnswered);
  if (answered.length === 0)
    return result([{ kind: 'unreachable', line: `UNREACHABLE ${file.path}: ${answers.map((answer) => answer.error)[0]} (${url.href})` }]);
  // Netlify and Cloudflare Pages read _headers and never serve it (wrangler pages dev answers it
  // with 502): whatever they answer, the headers it promises are checked on every other file. A
  // host that does serve it as a file must serve the build's bytes.
  if (file.path === HEADERS_FILE && found.length === 0) return result([]);
  if (found.length === 0) return result([{ kind: 'missing', line: `MISSING ${file.path}: ${statusOf(answered[0])} (${url.href})` }]);
  /** @type {Problem[]} */
  const problems = [];
  // Some encodings found and some not: a copy the host serves to some browsers only is gone.
  for (const answer of answers) {
    if (answer.error !== undefined) {
      problems.push({ kind: 'unreachable', line: `UNREACHABLE ${file.path} (asked for ${answer.asked}): ${answer.error} (${url.href})` });
      continue;
    }
    if (answer.status === 200) continue;
    problems.push({ kind: 'missing', line: `MISSING ${file.path} (asked for ${answer.asked}): ${statusOf(answer)} (${url.href})` });
  }
  problems.push(...alteredCopies(file, found));
  problems.push(...typeProblem(file.path, found));
  // The promised headers, on the file itself (the identity answer when there is one).
  for (const [name, promised] of Object.entries(headersFor(urlPath))) {
    // The manifest's type is checked with every file's type, above.
    if (name === 'Content-Type') continue;
    if (name === 'Content-Security-Policy') {
      problems.push(...policyProblem(file.path, promised, found[0]));
      continue;
    }
    const sent = found[0].headers.get(name);
    if (keeps(name, promised, sent)) continue;
    problems.push({
      kind: 'header',
      line: `HEADER ${file.path}: ${name} is ${sent === null ? 'missing' : JSON.stringify(sent)}, expected ${JSON.stringify(promised)}`,
    });
  }
  return result(problems);
}

/**
 * Whether a request got an answer (any status).
 * @param {Answer} answer
 * @returns {answer is Answered}
 */
const isAnswered = (answer) => answer.error === undefined;

/**
 * Whether a request found the file (200).
 * @param {Answer} answer
 * @returns {answer is Answered}
 */
const isFound = (answer) => isAnswered(answer) && answer.status === 200;

/**
 * One ALTERED line per copy whose bytes differ from the build's, naming the encoding the host sent.
 * @param {{ path: string, bytes: number, sha384: string }} file
 * @param {Answered[]} found
 * @returns {Problem[]}
 */
function alteredCopies(file, found) {
  /** @type {Problem[]} */
  const problems = [];
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
    problems.push({
      kind: 'altered',
      line: `ALTERED ${file.path} (${answer.encoding}): ${answer.body.length} bytes with ${sha384}, dist/ has ${file.bytes} bytes with ${file.sha384}`,
    });
  }
  return problems;
}

/**
 * Runs `job` on every item, at most `limit` at a time; resolves to the results in item order.
 * @template Item, Result
 * @param {Item[]} items
 * @param {number} limit
 * @param {(item: Item) => Promise<Result>} job
 * @returns {Promise<Result[]>}
 */
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

/**
 * How many files the host sent in each encoding: `17 identity, 13 gzip, 13 br`.
 * @param {FileResult[]} results
 */
function encodingCounts(results) {
  return ENCODINGS.map((encoding) => `${results.filter((result) => result.sent.includes(encoding)).length} ${encoding}`).join(', ');
}

/**
 * The summary line: what was checked, and the problems by kind.
 * @param {URL} base
 * @param {Audit} audit
 * @param {FileResult[]} results
 * @param {Problem[]} problems
 */
function summary(base, audit, results, problems, warnings = 0) {
  const what = `${results.length} files of version ${audit.version} (${audit.build} build) at ${base.href}`;
  const redirected = results.filter((result) => result.redirectedTo).map((result) => `${result.path} to ${result.redirectedTo}`);
  // Said, not hidden: what was checked for those files is what the redirect leads to.
  const note = redirected.length ? `; the host redirects ${redirected.join(', ')} (checked there)` : '';
  if (!problems.length && warnings)
    return `verify: OK (bytes only), ${what}: every SHA-384 matches dist/ in every encoding sent (${encodingCounts(results)}), and the worker's scope is the site's path; ${warnings} warning${warnings === 1 ? '' : 's'} about headers and types the host does not send as promised${note}`;
  if (!problems.length)
    return `verify: OK, ${what}: every SHA-384 matches dist/ in every encoding sent (${encodingCounts(results)}), every file has the type a browser needs, and every promised header is sent, with one Content-Security-Policy, the table's${note}`;
  /** @type {Partial<Record<Problem['kind'], number>>} */
  const counts = {};
  for (const { kind } of problems) counts[kind] = (counts[kind] ?? 0) + 1;
  const parts = Object.entries(counts).map(([kind, n]) => `${n} ${PROBLEM_NAMES[/** @type {Problem['kind']} */ (kind)]}`);
  return `verify: FAILED, ${problems.length} problem${problems.length === 1 ? '' : 's'} (${parts.join(', ')}) in ${what}${note}`;
}

/**
 * A dev server (`npm run dev`) is no release: its pages are not prerendered and it has no service
 * worker. Its sw.js says so on its first line; checking it file by file would only list mismatches.
 * @param {URL} base
 */
async function refuseDevBuild(base) {
  const worker = await fetchFile(new URL('sw.js', base), 'identity');
  if (worker.error === undefined && worker.body.toString('utf8').startsWith(DEV_WORKER_MARK))
    throw new CannotVerify(`${base.href} serves a dev build (npm run dev), not a release: deploy what npm run build writes`);
}

async function main() {
  const { base, dist, bytesOnly } = parseArgs(process.argv.slice(2));
  const local = await readLocalAudit(dist);
  // The site's own audit.json first: if that cannot be fetched at all, nothing can.
  const first = await fetchFile(new URL('audit.json', base), 'identity');
  if (first.error !== undefined) throw new CannotVerify(`cannot reach ${base.href}: ${first.error}`);
  await refuseDevBuild(base);
  const files = [...local.audit.files, { path: 'audit.json', bytes: local.bytes.length, sha384: sri(local.bytes) }];
  const results = await mapLimited(files, CONCURRENCY, (file) => checkFile(base, file));
  const found = [...(await scopeProblem(base, dist)), ...results.flatMap((result) => result.problems)];
  const problems = bytesOnly ? found.filter((problem) => !HEADER_KINDS.includes(problem.kind)) : found;
  const warnings = bytesOnly ? warningLines(found.filter((problem) => HEADER_KINDS.includes(problem.kind))) : [];
  for (const { line } of problems) console.log(line);
  for (const line of warnings) console.log(line);
  console.log(summary(base, local.audit, results, problems, warnings.length));
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
