// Every screen renders on both builds and on each build's hosts (lib/hosts.ts hostsFor()), with its
// landmarks and a quiet console.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { newWatchedPage } from './lib/app';
import { freshContext } from './lib/browser';
import { hostsFor, startHost } from './lib/hosts';
import { BUILDS, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { WAIT } from './lib/wait';
import { ROUTES } from './lib/screens';

/** Every route, as a link without the trailing slash would name it (`/status`; the host redirects or the worker answers). */
const PAGES = ROUTES.map((route) => ({ path: route.path === '/' ? '/' : route.path.slice(0, -1), h1: route.h1 }));

for (const build of BUILDS) {
  for (const kind of hostsFor(build.name)) {
    const test = suite<Shared>(`render (${build.name}, ${kind})`);
    shareChromium(test, () => startHost(kind, site(build.name, 'v1')));

    for (const p of PAGES) {
      test(`renders ${p.path} with its heading and landmarks, and no console errors`, async ({ browser, host }) => {
        // Workers blocked: this test is about the page itself, not the offline layer.
        const context = await freshContext(browser, { serviceWorkers: 'block' });
        try {
          const { page, problems } = await newWatchedPage(context);
          await page.goto(new URL(p.path, host.url).href);
          await page.getByRole('heading', { level: 1, name: p.h1 }).waitFor(WAIT);
          assert.is(await page.getByRole('banner').count(), 1);
          assert.is(await page.getByRole('main').count(), 1);
          assert.is(await page.getByRole('navigation', { name: 'Main' }).count(), 1);
          assert.equal(problems, []);
        } finally {
          await context.close();
        }
      });
    }
    test.run();
  }
}
