// Google's CSP Evaluator (npm csp_evaluator, installed into the test cache on first use by
// test/harness/setup.mjs) on the policies the app ships: the header of tools/headers.mjs and each
// build's own <meta> policy, as CSP3 browsers read them: the header's script-src 'self' has one
// finding, the page's strict form (its script by hash, 'strict-dynamic', 'self' kept for browsers
// before CSP3) none above INFO. What it reports is what the README says.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { headersFor } from '../../tools/headers.mjs';
import { BUILDS, site } from './lib/site';

/** One finding as the evaluator reports it: how severe (a lower number is worse), where, and why. */
interface Finding {
  severity: number;
  directive: string;
  value?: string;
  description: string;
}

/** The parts of csp_evaluator's CommonJS modules this test uses. */
interface Evaluator {
  evaluate(policy: string): Finding[];
  severity: Record<'HIGH' | 'MEDIUM' | 'MEDIUM_MAYBE' | 'INFO' | 'NONE', number>;
}

/** The evaluator installed at CSP_EVALUATOR_PATH (the runner sets it), evaluating as a CSP3 browser reads a policy. */
function loadEvaluator(): Evaluator {
  const dir = process.env.CSP_EVALUATOR_PATH;
  if (!dir) throw new Error('CSP_EVALUATOR_PATH is not set: run this file through npm test, which installs the evaluator');
  const load = createRequire(path.join(dir, 'package.json'));
  const { CspEvaluator } = load('./dist/evaluator.js');
  const { CspParser } = load('./dist/parser.js');
  const { Version } = load('./dist/csp.js');
  const { Severity } = load('./dist/finding.js');
  return {
    evaluate: (policy) => new CspEvaluator(new CspParser(policy).csp, Version.CSP3).evaluate(),
    severity: Severity,
  };
}

/** The content of a page's `<meta http-equiv="Content-Security-Policy">`. */
function metaPolicyOf(file: string): string {
  const content = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(readFileSync(file, 'utf8'))?.[1];
  assert.ok(content, `${file} has its own policy`);
  return content.replaceAll('&quot;', '"').replaceAll('&amp;', '&');
}

/** The page's script and the scripts it preloads as hash sources, from their `integrity` attributes, in the page's order. */
const scriptHashesOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/<(?:script|link rel="modulepreload")[^>]*\sintegrity="(sha384-[^"]+)"/g)].map(
    (match) => `'${match[1]}'`,
  );

const test = suite('CSP Evaluator');
const evaluator = loadEvaluator();
/** A finding as a line: severity name, directive, value. */
const line = (finding: Finding) =>
  `${Object.entries(evaluator.severity).find(([, n]) => n === finding.severity)?.[0]} ${finding.directive} ${finding.value ?? ''}: ${finding.description}`;
const SELF_FINDING = "MEDIUM_MAYBE script-src 'self': 'self' can be problematic if you host JSONP, AngularJS or user uploaded files.";

test("the header: one finding, MEDIUM_MAYBE for script-src 'self' (JSONP, AngularJS or uploads on the origin); Trusted Types add none", () => {
  assert.equal(evaluator.evaluate(headersFor('/')['Content-Security-Policy']).map(line), [SELF_FINDING]);
});

for (const build of BUILDS) {
  const page = path.join(site(build.name, 'v1'), 'index.html');

  test(`the page's own policy (${build.name}), the strict form of script-src (its scripts by hash, 'strict-dynamic', 'self' kept): nothing above INFO`, () => {
    const policy = metaPolicyOf(page);
    const hashes = scriptHashesOf(page);
    assert.ok(hashes.length >= 1, 'the page has its script, with its hash');
    assert.ok(policy.includes(`script-src 'self' 'strict-dynamic' ${hashes.join(' ')};`), policy);
    const findings = evaluator.evaluate(policy);
    // The positive signal: the evaluator read script-src, and says why it ignores 'self' there.
    assert.ok(
      findings.some((finding) => finding.directive === 'script-src' && finding.value === "'self'"),
      "a finding on 'self'",
    );
    assert.equal(findings.filter((finding) => finding.severity < evaluator.severity.INFO).map(line), [], 'nothing worse than INFO');
  });
}

test.run();
