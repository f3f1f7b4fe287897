import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILDS, launch, preview, pythonHost, watchProblems } from './helpers';

const PAGES = [
  { path: '/', h1: 'Notes' },
  { path: '/status', h1: 'Offline readiness' },
  { path: '/about', h1: 'What this app ships' },
];

let browser: Browser;
for (const build of BUILDS) {
  for (const hostName of ['preview server', 'python3 -m http.server']) {
    const test = suite(`render (${build.name}, ${hostName})`);
    let host: { url: string; close(): Promise<void> };
    test.before(async () => {
      browser = await launch();
      host = hostName === 'preview server' ? await preview(build.dir) : await pythonHost(build.dir);
    });
    test.after(async () => {
      await browser.close();
      await host.close();
    });

    for (const p of PAGES) {
      test(`renders ${p.path} with its heading and landmarks, and no console errors`, async () => {
        // Workers blocked: this test is about the page itself, not the offline layer.
        const context = await browser.newContext({ serviceWorkers: 'block' });
        try {
          const page = await context.newPage();
          const problems = watchProblems(page);
          await page.goto(new URL(p.path, host.url).href);
          await page.getByRole('heading', { level: 1, name: p.h1 }).waitFor({ timeout: 10_000 });
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

