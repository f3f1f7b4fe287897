// What a browser checks before it uses a file, for `npm run verify` (tools/verify.mjs): the
// Content-Type its kind needs, and the one Content-Security-Policy it enforces, which on a page must
// match the page's own <meta> policy (tools/headers.mjs). Each check returns the problem lines.
import { HEADER_ONLY_DIRECTIVES, MANIFEST_TYPE } from '../headers.mjs';

/**
 * One problem verify reports: its kind (for the summary's counts) and its line.
 * @typedef {{ kind: 'missing' | 'altered' | 'type' | 'header' | 'unreachable' | 'scope', line: string }} Problem
 */

/**
 * Each kind of problem as the summary counts it.
 * @type {Record<Problem['kind'], string>}
 */
export const PROBLEM_NAMES = {
  missing: 'missing',
  altered: 'altered',
  type: 'wrong type',
  header: 'wrong header',
  unreachable: 'unreachable',
  scope: 'wrong scope',
};

/**
 * What a host sent for one request that found the file: its headers, the encoding it sent and the
 * decoded body.
 * @typedef {{ headers: Headers, encoding: string, body: Buffer }} Sent
 */

/**
 * The JavaScript MIME types (WHATWG MIME Sniffing, "JavaScript MIME type"): the only types a
 * browser runs a module script or a service worker of (HTML "fetch a single module script";
 * Service Workers "Update": any other type rejects the registration with a SecurityError), and,
 * under `nosniff`, a classic script (Fetch, "should response to request be blocked due to nosniff?").
 */
const JAVASCRIPT_TYPES = [
  'text/javascript',
  'application/javascript',
  'application/ecmascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/javascript1.0',
  'text/javascript1.1',
  'text/javascript1.2',
  'text/javascript1.3',
  'text/javascript1.4',
  'text/javascript1.5',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
];

/**
 * The Content-Types each kind of file may be served with (type/subtype, lower case; the first is
 * the one to send) and what a browser does with any other.
 * @typedef {{ types: string[], otherwise: string }} Kind
 * @type {Record<string, Kind>}
 */
const KINDS = {
  script: { types: JAVASCRIPT_TYPES, otherwise: 'browsers refuse to run a module script of any other type' },
  worker: { types: JAVASCRIPT_TYPES, otherwise: 'the service worker never registers or updates' },
  // HTML "the link type stylesheet": a stylesheet whose type is not text/css is not applied (and
  // `nosniff` blocks it outright, Fetch).
  stylesheet: { types: ['text/css'], otherwise: 'browsers do not apply a stylesheet of any other type' },
  // A navigation renders the document by its type: text/plain shows the source, others download.
  html: { types: ['text/html'], otherwise: 'browsers show or download a page of any other type instead of rendering it' },
  json: { types: ['application/json'], otherwise: 'not the JSON type this project promises' },
  // Chromium 156 reads a manifest whatever its type (measured with DevTools' Page.getAppManifest:
  // manifest+json, json, octet-stream and text/plain, with nosniff, all parsed); the registered
  // type (W3C Web App Manifest) or plain JSON say the host knows the file, anything else that it
  // does not, and other browsers may be stricter.
  manifest: { types: [MANIFEST_TYPE, 'application/json'], otherwise: 'not a web app manifest type' },
  text: { types: ['text/plain'], otherwise: 'browsers download a text of another type instead of showing it' },
  png: { types: ['image/png'], otherwise: 'not an image type' },
  // An SVG is drawn as an image only when it is served as image/svg+xml (SVG 2, "MIME type").
  svg: { types: ['image/svg+xml'], otherwise: 'browsers draw an SVG of any other type as nothing' },
  ico: { types: ['image/x-icon', 'image/vnd.microsoft.icon'], otherwise: 'not an image type' },
  woff2: { types: ['font/woff2'], otherwise: 'not the font type' },
  // Media elements sniff what they get; the registered types (and the older names hosts still
  // send: python's audio/x-wav) say the host knows the file.
  jpeg: { types: ['image/jpeg'], otherwise: 'not an image type' },
  webp: { types: ['image/webp'], otherwise: 'not an image type' },
  avif: { types: ['image/avif'], otherwise: 'not an image type' },
  gif: { types: ['image/gif'], otherwise: 'not an image type' },
  wav: { types: ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'], otherwise: 'not a sound type' },
  mp3: { types: ['audio/mpeg'], otherwise: 'not a sound type' },
  mp4: { types: ['video/mp4'], otherwise: 'not a video type' },
  webm: { types: ['video/webm', 'audio/webm'], otherwise: 'not a video type' },
};

/**
 * The kind of a file of dist/ by its name, or undefined for one browsers never load (`_headers`).
 * @param {string} file
 * @returns {Kind | undefined}
 */
function kindOf(file) {
  if (file === 'sw.js' || file.endsWith('/sw.js')) return KINDS.worker;
  const extension = /\.([a-z0-9]+)$/i.exec(file)?.[1].toLowerCase();
  /** @type {Record<string, Kind>} */
  const byExtension = {
    js: KINDS.script,
    mjs: KINDS.script,
    css: KINDS.stylesheet,
    html: KINDS.html,
    json: KINDS.json,
    webmanifest: KINDS.manifest,
    txt: KINDS.text,
    png: KINDS.png,
    svg: KINDS.svg,
    ico: KINDS.ico,
    woff2: KINDS.woff2,
    jpg: KINDS.jpeg,
    jpeg: KINDS.jpeg,
    webp: KINDS.webp,
    avif: KINDS.avif,
    gif: KINDS.gif,
    wav: KINDS.wav,
    mp3: KINDS.mp3,
    mp4: KINDS.mp4,
    webm: KINDS.webm,
  };
  return extension === undefined ? undefined : byExtension[extension];
}

/**
 * A TYPE problem when an answer's Content-Type is not one its kind may have; the first such
 * answer's (a host may send a precompressed copy with a type of its own).
 * @param {string} file
 * @param {Sent[]} found
 * @returns {Problem[]}
 */
export function typeProblem(file, found) {
  const kind = kindOf(file);
  if (!kind) return [];
  for (const answer of found) {
    const sent = answer.headers.get('content-type');
    const essence = sent?.split(';')[0].trim().toLowerCase();
    if (essence !== undefined && kind.types.includes(essence)) continue;
    const as = answer.encoding === 'identity' ? '' : ` (sent as ${answer.encoding})`;
    const what = sent === null ? 'missing' : JSON.stringify(sent);
    return [{ kind: 'type', line: `TYPE ${file}${as}: Content-Type is ${what}, expected ${kind.types[0]}: ${kind.otherwise}` }];
  }
  return [];
}

/**
 * The policies of a Content-Security-Policy header: a comma separates policies (CSP Level 3,
 * "parse a serialized CSP list"), and a host that sends the header twice is read the same way
 * (HTTP joins repeated fields with commas, and fetch() hands them over joined).
 * @param {string} value
 */
const policiesOf = (value) =>
  value
    .split(',')
    .map((policy) => policy.trim())
    .filter(Boolean);

/**
 * A policy as a set of directives, so that spacing, case and order do not count: each directive
 * lower-cased, its sources sorted, the directives sorted; `leaveOut` names directives to drop.
 * @param {string} policy
 * @param {string[]} [leaveOut]
 */
function normalPolicy(policy, leaveOut = []) {
  return policy
    .split(';')
    .map((directive) => directive.trim().toLowerCase().split(/\s+/))
    .filter(([name]) => name && !leaveOut.includes(name))
    .map(([name, ...sources]) => [name, ...sources.sort()].join(' '))
    .sort()
    .join('; ');
}

/**
 * The page's own policy: the content of its `<meta http-equiv="Content-Security-Policy">` (the
 * build writes exactly one, with `&quot;` and `&amp;` escaped), or null when it has none.
 * @param {Buffer} html
 */
function metaPolicyOf(html) {
  const content = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html.toString('utf8'))?.[1];
  return content === undefined ? null : content.replaceAll('&quot;', '"').replaceAll('&amp;', '&');
}

/**
 * What a policy lacks of Trusted Types, as the rest of a problem line, or null when it has both
 * directives: without `require-trusted-types-for 'script'` any string reaches a script sink, and
 * without `trusted-types` any script may create a policy that passes every string on (Trusted
 * Types, "Content Security Policy directives").
 * @param {string} policy
 * @returns {string | null}
 */
function trustedTypesGap(policy) {
  const directives = new Map(
    policy
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name.toLowerCase(), sources]),
  );
  if (!directives.get('require-trusted-types-for')?.includes("'script'"))
    return "has no require-trusted-types-for 'script': a string reaches innerHTML, eval or a script's URL unchecked, so a DOM XSS runs";
  if (!directives.has('trusted-types'))
    return 'has no trusted-types directive: any script may create a policy that lets every string through';
  return null;
}

/**
 * The HEADER problem with a file's Content-Security-Policy, if any: a browser enforces every policy
 * it is sent (CSP Level 3, "enforce"), so there must be exactly one, the table's; on a page, the
 * page's own <meta> policy must be that one without the directives a meta element cannot carry
 * (and with its scripts by their hash: expectedMetaPolicy), or the page meets a different policy
 * on a host that sends no headers. A policy without Trusted
 * Types is named as such first (trustedTypesGap).
 * @param {string} file
 * @param {string} promised
 * @param {Sent} answer
 * @returns {Problem[]}
 */
export function policyProblem(file, promised, answer) {
  const sent = answer.headers.get('content-security-policy');
  /** @param {string} line */
  const problem = (line) => [{ kind: /** @type {const} */ ('header'), line: `HEADER ${file}: ${line}` }];
  if (sent === null) return problem(`Content-Security-Policy is missing, expected ${JSON.stringify(promised)}`);
  const policies = policiesOf(sent);
  if (policies.length !== 1)
    return problem(
      `Content-Security-Policy is ${policies.length} policies, ${policies.map((policy) => JSON.stringify(policy)).join(' and ')}, each enforced, expected one: ${JSON.stringify(promised)}`,
    );
  const gap = trustedTypesGap(policies[0]);
  if (gap) return problem(`Content-Security-Policy ${gap}; expected ${JSON.stringify(promised)}`);
  if (normalPolicy(policies[0]) !== normalPolicy(promised))
    return problem(`Content-Security-Policy is ${JSON.stringify(sent)}, expected ${JSON.stringify(promised)}`);
  if (!file.endsWith('.html')) return [];
  const meta = metaPolicyOf(answer.body);
  if (meta === null) return [];
  const metaGap = trustedTypesGap(meta);
  if (metaGap) return problem(`the page's own <meta> Content-Security-Policy ${metaGap}`);
  // Its scripts and the scripts it preloads (tools/pipeline/html.mjs), in the page's order.
  const scriptTags = /<(?:script\b|link\b(?=[^>]*\srel="modulepreload"))[^>]*\sintegrity="([^"]+)"/gi;
  const scriptHashes = [...answer.body.toString('utf8').matchAll(scriptTags)].map((match) => `'${match[1]}'`);
  const expected = expectedMetaPolicy(promised, scriptHashes);
  if (normalPolicy(meta) === normalPolicy(expected)) return [];
  const hashed = scriptHashes.length > 0 ? ", with its scripts by their hash and 'strict-dynamic' in script-src" : '';
  return problem(
    `the page's own <meta> Content-Security-Policy is ${JSON.stringify(meta)}, expected the header's without ${HEADER_ONLY_DIRECTIVES.join(', ')}${hashed}: ${JSON.stringify(expected)}`,
  );
}

/**
 * The page's own policy the build writes for a header policy `promised` (tools/headers.mjs
 * metaPolicyFor): without the header-only directives, and with the page's scripts by their hash
 * and `'strict-dynamic'` in script-src when it has scripts with `integrity`.
 * @param {string} promised
 * @param {string[]} scriptHashes quoted hash sources, `'sha384-…'`
 */
function expectedMetaPolicy(promised, scriptHashes) {
  return promised
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive && !HEADER_ONLY_DIRECTIVES.includes(directive.split(/\s+/)[0].toLowerCase()))
    .map((directive) =>
      scriptHashes.length > 0 && directive.split(/\s+/)[0].toLowerCase() === 'script-src'
        ? [directive, "'strict-dynamic'", ...scriptHashes].join(' ')
        : directive,
    )
    .join('; ');
}
