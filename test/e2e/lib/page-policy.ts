// The page's own Content-Security-Policy (the <meta> the build writes first in every page), proven
// in a tab of any engine where the host sends no policy header (python): its script-src refuses an
// inline and a foreign script, and its Trusted Types refuse a string written into innerHTML.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as assert from 'uvu/assert';
import type { Tab } from './driver';
import type { Host } from './hosts';
import { sri } from '../../../tools/sri.mjs';
import { copySite } from './site';
import { until } from './wait';

/** A problem line that reports a refusal by the policy, in the words of each engine's console or WebKit's page-side hook. */
const REFUSAL = /Content.Security.Policy|CSP violation|Trusted.?(Types|HTML|Script)/i;

/** The name of the page-side list the probes below push each `securitypolicyviolation` onto. */
type Probed = Window & { __cspSeen?: string[] };

/** The probe page's recorder of `securitypolicyviolation` events, a same-origin script. */
const RECORDER =
  "window.__cspSeen = [];\ndocument.addEventListener('securitypolicyviolation', (e) => window.__cspSeen.push(e.violatedDirective + ' ' + e.blockedURI));\n";

/**
 * A page carrying `site`'s own policy (the <meta> element of its index.html) and, after it, three
 * parser-inserted scripts: the recorder (allowed by its hash, added to the policy's script-src
 * beside the app script's: under 'strict-dynamic' only a script named by its hash runs), an inline
 * script, a script from `foreign` and a same-origin script the policy does not name. Parser-inserted, because the page's Trusted Types forbid a
 * test to make a script from a string (a script's text and src are sinks); the parser is no sink,
 * so what refuses these two is script-src alone.
 */
function probePage(site: string, foreign: string): string {
  const meta = /<meta http-equiv="Content-Security-Policy"[^>]*>/.exec(readFileSync(path.join(site, 'index.html'), 'utf8'))?.[0];
  if (!meta) throw new Error(`${site}/index.html has no policy of its own`);
  assert.ok(meta.includes("script-src 'self' 'strict-dynamic' 'sha384-"), "the site's own policy names its script by hash");
  const recorderHash = sri(Buffer.from(RECORDER));
  const dir = copySite(site);
  writeFileSync(path.join(dir, 'csp-recorder.js'), RECORDER);
  writeFileSync(path.join(dir, 'csp-unnamed.js'), 'window.__cspUnnamedRan = true;\n');
  writeFileSync(path.join(dir, 'csp-probe.js'), 'window.__cspForeignRan = true;\n');
  writeFileSync(
    path.join(dir, 'csp-probe.html'),
    `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n${meta.replace("script-src 'self'", `script-src 'self' '${recorderHash}'`)}\n<title>CSP probe</title>\n` +
      `<script src="/csp-recorder.js" integrity="${recorderHash}"></script>\n<script>window.__cspInlineRan = true</script>\n<script src="${foreign}"></script>\n` +
      '<script src="/csp-unnamed.js"></script>\n' +
      '</head>\n<body><h1>CSP probe</h1></body>\n</html>\n',
  );
  return dir;
}

/**
 * The page's own Content-Security-Policy is enforced where the host sends none (issue 35): python
 * sends no headers, so what refuses here is the <meta> the build writes first in every page. A page
 * with `site`'s policy has an inline script and a script from another origin (localhost: the same
 * server by another name); each is refused with a `securitypolicyviolation` (the positive signal),
 * and then neither ran. A same-origin script the policy does not name by hash is
 * refused too: the strict form of script-src ('strict-dynamic' makes CSP3 engines ignore 'self').
 * `open` opens the probe page in a profile with no worker of the app (one would answer the probe
 * page's navigation with the app's not-found page). Leaves the host serving a copy of `site` with
 * the probe page.
 */
export async function assertPolicyEnforced(open: (url: string) => Promise<Tab>, host: Host, site: string): Promise<void> {
  const root = new URL('/', host.url).href;
  assert.is((await fetch(root)).headers.get('content-security-policy'), null, 'python sends no policy header');
  const probe = new URL('/csp-probe.js', root.replace('127.0.0.1', 'localhost')).href;
  await host.setRoot(probePage(site, probe));
  const tab = await open(new URL('/csp-probe.html', root).href);
  assert.is(await tab.evaluate(() => !!navigator.serviceWorker?.controller), false, 'no worker answered the probe page');
  const reported = () => tab.evaluate(() => (window as Probed).__cspSeen ?? []);
  const unnamed = new URL('/csp-unnamed.js', root).href;
  await until('the page to report three refusals', async () => (await reported()).length >= 3);
  // All three engines name the directive that applied to a <script> element (CSP Level 3).
  assert.equal((await reported()).sort(), [`script-src-elem ${probe}`, `script-src-elem ${unnamed}`, 'script-src-elem inline'].sort());
  assert.is(await tab.evaluate(() => '__cspInlineRan' in window), false, 'the inline script did not run');
  assert.is(await tab.evaluate(() => '__cspUnnamedRan' in window), false, 'the same-origin script the policy does not name did not run');
  // The other origin serves the script (the same server): WebKitGTK 2.50 fetches it before refusing
  // it under 'strict-dynamic' (measured), so what counts is that it never ran.
  assert.is(await tab.evaluate(() => '__cspForeignRan' in window), false, 'the script from another origin did not run');
}

/**
 * The page's Trusted Types are enforced (issue 45): a string written into innerHTML, the sink of
 * every DOM XSS, throws a TypeError and is reported as a `securitypolicyviolation` of
 * `require-trusted-types-for` (the positive signal); the element stays empty. The tab's problems()
 * see the refusal too (Chromium's and Firefox's consoles, WebKit's page-side hook), so the empty
 * lists of the scenarios include "no Trusted Types violation".
 */
export async function assertTrustedTypesEnforced(tab: Tab): Promise<void> {
  const before = (await tab.problems()).filter((problem) => REFUSAL.test(problem)).length;
  const outcome = await tab.evaluate(() => {
    const page = window as Probed;
    const seen: string[] = [];
    page.__cspSeen = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    const target = document.createElement('div');
    document.body.append(target);
    try {
      target.innerHTML = '<img src="/x" alt="written by a string">';
      return { thrown: '', children: target.childElementCount };
    } catch (error) {
      return { thrown: (error as Error).name, children: target.childElementCount };
    }
  });
  const reported = () => tab.evaluate(() => (window as Probed).__cspSeen ?? []);
  await until('the page to report the refusal', async () => (await reported()).length >= 1);
  assert.equal(await reported(), ['require-trusted-types-for trusted-types-sink']);
  assert.equal(outcome, { thrown: 'TypeError', children: 0 }, 'the assignment threw and wrote nothing');
  await until(
    'the refusal among the tab problems',
    async () => (await tab.problems()).filter((problem) => REFUSAL.test(problem)).length > before,
  );
}
