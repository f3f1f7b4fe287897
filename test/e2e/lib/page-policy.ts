// The page's own Content-Security-Policy (the <meta> the build writes first in every page), proven
// in a tab of any engine where the host sends no policy header (python).
import * as assert from 'uvu/assert';
import type { Tab } from './driver';
import { requestsSince, type Host } from './hosts';
import { until } from './wait';

/**
 * The page's own Content-Security-Policy is enforced where the host sends none (issue 35): python
 * sends no headers, so what refuses here is the <meta> the build writes first in every page. An
 * inline script and a script from another origin (localhost: the same server by another name)
 * are refused, each with a `securitypolicyviolation` (the positive signal); then neither ran nor
 * was fetched. The tab's problems() sees the refusals too (Chromium's console, Firefox's uncaught
 * errors, WebKit's page-side hook), so the empty lists of the scenarios include "no CSP violation".
 */
export async function assertPolicyEnforced(tab: Tab, host: Host): Promise<void> {
  const root = new URL('/', host.url).href;
  assert.is((await fetch(root)).headers.get('content-security-policy'), null, 'python sends no policy header');
  const probe = new URL('/csp-probe.js', root.replace('127.0.0.1', 'localhost')).href;
  await tab.evaluate((src) => {
    const page = window as Window & { __cspSeen?: string[] };
    const seen: string[] = [];
    page.__cspSeen = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    const inline = document.createElement('script');
    inline.textContent = 'window.__cspInlineRan = true';
    document.head.append(inline);
    const other = document.createElement('script');
    other.src = src;
    document.head.append(other);
  }, probe);
  const reported = () => tab.evaluate(() => (window as Window & { __cspSeen?: string[] }).__cspSeen ?? []);
  await until('the page to report two refusals', async () => (await reported()).length >= 2);
  const seen = await reported();
  // All three engines name the directive that applied to a <script> element (CSP Level 3).
  assert.equal(seen.sort(), [`script-src-elem ${probe}`, 'script-src-elem inline']);
  assert.is(await tab.evaluate(() => '__cspInlineRan' in window), false, 'the inline script did not run');
  await host.logged();
  assert.not.ok(requestsSince(host, 0).includes('/csp-probe.js'), 'the other origin was never asked');
  await until(
    'the refusals among the tab problems',
    async () => (await tab.problems()).filter((problem) => /Content.Security.Policy|CSP violation/i.test(problem)).length >= 2,
  );
}
