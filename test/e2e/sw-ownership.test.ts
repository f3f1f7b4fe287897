// What the worker answers and what it leaves to the network, on an origin it shares: installed at
// the root of a host that also serves another site's page (a GitHub Pages user site and its
// owner's project sites), it answers only the routes and files of its version. Any other navigation
// goes to the host while online (the cached not-found page answers it only offline), unless the
// builder claims the path (package.json `claimedPaths`); a Range request is sliced only from a
// cached whole file, and the network's answers (an error, the host's own 206) pass through as sent.
import { readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { headingAt, openInstalled } from './lib/app';
import { freshContext } from './lib/browser';
import { requestsSince, startHost } from './lib/hosts';
import { OTHER_SITE, withOtherSite } from './lib/other-site';
import { NOT_FOUND } from './lib/screens';
import { cleanup, copySources, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';

/** A media file of the other site that the host answers Range requests for itself. */
const OTHER_MEDIA = '/other-site/clip.bin';
const MEDIA = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 256));

/** Answers a Range GET of OTHER_MEDIA with its own 206, as a host with range support does. */
function hostRanges(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.url !== OTHER_MEDIA || req.method !== 'GET') return false;
  const [, first, last] = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '') ?? [];
  if (!first) {
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': MEDIA.length }).end(MEDIA);
    return true;
  }
  const part = MEDIA.subarray(Number(first), Number(last) + 1);
  res
    .writeHead(206, {
      'Content-Type': 'application/octet-stream',
      'Content-Range': `bytes ${first}-${last}/${MEDIA.length}`,
      'Content-Length': part.length,
    })
    .end(part);
  return true;
}

// On the React build: sw.js is the same bytes in both builds. (Another site's page online and the
// app's "Not found" offline, and a 404 asked with Range: engines-versions.test.ts scenario 11, in
// every engine; and in-process, test/unit/sw-serve.test.ts.)
{
  const build = { name: 'react' } as const;
  const test = suite<Shared>(`sw on a shared origin (${build.name})`);
  shareChromium(test, () => startHost('preview', withOtherSite(site(build.name, 'v1')), { intercept: hostRanges }));
  test.after(cleanup);

  test('a Range request the network answers passes through as sent: a 404 stays a 404, the host’s 206 keeps its bytes and offsets', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    const page = await openInstalled(context, host.url);
    assert.ok(await page.evaluate(() => !!navigator.serviceWorker.controller), 'the worker answers the page’s requests');
    const ask = (url: string, range: string) =>
      page.evaluate(
        async ([u, r]) => {
          const res = await fetch(u, { headers: { Range: r } });
          return { status: res.status, range: res.headers.get('content-range'), bytes: [...new Uint8Array(await res.arrayBuffer())] };
        },
        [url, range],
      );
    const missing = await ask('/no-such-file.txt', 'bytes=0-');
    assert.is(missing.status, 404);
    const part = await ask(OTHER_MEDIA, 'bytes=10-59');
    assert.equal(part, { status: 206, range: `bytes 10-59/${MEDIA.length}`, bytes: [...MEDIA.subarray(10, 60)] });
    await context.close();
  });

  test.run();
}

// A builder's option: an app that wants every path under it (package.json `claimedPaths: ["/"]`)
// answers a path its version does not know with its not-found page, online too.
const claimed = suite<Shared>('sw with every path claimed (react)');
let claimedDist = '';
shareChromium(claimed, async () => {
  const project = copySources();
  const packageFile = path.join(project, 'package.json');
  writeFileSync(packageFile, JSON.stringify({ ...JSON.parse(readFileSync(packageFile, 'utf8')), claimedPaths: ['/'] }));
  const out = path.join(project, 'dist');
  const built = spawnSync(process.execPath, ['build.mjs', '--out', out], { cwd: project, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build with claimedPaths: ${built.stderr}`);
  claimedDist = withOtherSite(out);
  return startHost('preview', claimedDist);
});
claimed.after(cleanup);

claimed(
  'online, a claimed path the version does not know is the app’s "Not found", and the host is not asked',
  async ({ browser, host }) => {
    const context = await freshContext(browser);
    const page = await openInstalled(context, host.url);
    const from = host.log.length;
    assert.is(await headingAt(page, new URL(OTHER_SITE, host.url).href), NOT_FOUND.h1);
    assert.not.ok(requestsSince(host, from).includes(OTHER_SITE), 'answered from the cache');
    await context.close();
  },
);

claimed.run();
