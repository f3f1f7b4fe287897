// The dev loop as a user runs it: `node build.mjs --watch` in a copy of the project (the build
// itself: build.test.ts).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { countLoads, newWatchedPage, statusFact } from './lib/app';
import { freshContext, launchChromium } from './lib/browser';
import { cleanup, copySources } from './lib/site';
import { until } from './lib/wait';
import { present } from '../present';

const dev = suite('dev mode');
for (const flags of [[], ['--preact']])
  dev(
    `\`--watch ${flags.join(' ')}\` serves the app with no service worker, reloads the page on save (the framework bundle untouched), keeps the last good build through a syntax error, and type errors block nothing`,
    async () => {
      const dir = copySources();
      const child = spawn(process.execPath, ['build.mjs', '--watch', ...flags], {
        cwd: dir,
        env: { ...process.env, PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const browser = await launchChromium();
      const app = path.join(dir, 'src/ui/App.tsx');
      const original = readFileSync(app, 'utf8');
      /** Saves App.tsx with the footer saying `footer`, plus `extra` code. */
      const save = (footer: string, extra = '') => writeFileSync(app, original.replace('Works offline.', footer) + extra);
      /** The footer's first sentence, the one each save changes. */
      const footer = async () => (await page.locator('footer').textContent())?.split(' Nothing leaves')[0];
      let page: Page;
      try {
        const url = present(await until('the URL', () => /serving .* on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1], 30_000), 'the URL');
        const watched = await newWatchedPage(await freshContext(browser));
        page = watched.page;
        const loads = countLoads(page);
        await page.goto(url); // resolves after `load`, when a production page registers its worker
        await page.getByRole('link', { name: 'Offline readiness' }).click();
        assert.is(
          await until('the worker state on the status screen', () => statusFact(page, 'State')),
          'unsupported: dev builds register no service worker',
        );
        assert.equal(await page.evaluate(async () => [(await navigator.serviceWorker.getRegistrations()).length, await caches.keys()]), [
          0,
          [],
        ]);

        /** The dev page's framework bundle: its URL (named by content) and its text. */
        const framework = async () => {
          const html = await (await fetch(url)).text();
          const src = /<script type="module" src="([^"]*\/framework-[0-9a-f]+\.js)"/.exec(html)?.[1];
          assert.ok(src, 'the page loads a framework bundle named by its content');
          return { src, text: await (await fetch(new URL(src, url))).text() };
        };
        const frameworkBefore = await framework();
        save('Edited in dev mode.');
        await until('the page to reload itself with the edit', async () => (await footer()) === 'Edited in dev mode.', 15_000);
        assert.is(loads.n, 2, 'one reload for one save');
        // The live reload and the dev build under the page's own policy, Trusted Types included (the
        // dev site has no audit.json, so the screens' 404s for it are not counted here).
        assert.equal(
          watched.problems.filter((problem) => /securitypolicyviolation|Content Security Policy|Trusted(Script|HTML)/i.test(problem)),
          [],
          'no policy violation in the dev loop',
        );
        // A save rebuilds our code only: the framework's bundle is the same file, so the browser
        // revalidates it rather than downloading and compiling it again.
        assert.equal(await framework(), frameworkBefore, 'the framework bundle unchanged by a save');
        // Dev bundles are not minified: esbuild heads each bundled module with its path (relative to
        // the copy, so the packages' paths run through wherever node_modules really is).
        const packageModule = /^\/\/ \S*node_modules\//m;
        assert.not.ok(packageModule.test(await (await fetch(new URL('/assets/app.js', url))).text()), 'app.js bundles no package');
        assert.ok(packageModule.test(frameworkBefore.text), 'the framework bundle holds the packages');

        // A syntax error: one line, and the last good build stays served (no reload is sent).
        const before = out.length;
        save('Broken.', '\nconst = ;\n');
        await until('the one-line build error', () => /build failed: .*src\/ui\/App\.tsx:\d+:\d+: /.test(out.slice(before)), 15_000);
        assert.is(
          out
            .slice(before)
            .split('\n')
            .filter((line) => line.startsWith('build failed')).length,
          1,
        );
        assert.is(await footer(), 'Edited in dev mode.');
        assert.ok(
          (await (await fetch(new URL('/assets/app.js', url))).text()).includes('Edited in dev mode.'),
          'the last good build is still served',
        );
        assert.is(loads.n, 2, 'no reload after a failed build');

        // The next good save recovers; a type error in it does not hold the rebuild back, and the
        // type checker beside the build reports it.
        save('Recovered, badly typed.', '\nexport const count: number = "not a number";\n');
        await until('the page to reload with the recovered build', async () => (await footer()) === 'Recovered, badly typed.', 15_000);
        assert.is(loads.n, 3);

        // A framework module the dev bundle does not hold: one line saying where to add it.
        const beforeImport = out.length;
        save('Recovered, badly typed.', '\nexport const count: number = "not a number";\nexport { version } from "react-dom/server";\n');
        await until(
          'the one-line framework import error',
          () => /build failed: .*react-dom\/server is not in FRAMEWORK_MODULES/.test(out.slice(beforeImport)),
          15_000,
        );
        save('Recovered, badly typed.', '\nexport const count: number = "not a number";\n');
        await until('the type checker to report the type error', () => /src\/ui\/App\.tsx:\d+:\d+: TS2322 /.test(out), 60_000);
      } catch (err) {
        (err as Error).message += `\n--watch output:\n${out}`;
        throw err;
      } finally {
        await browser.close();
        child.kill();
        cleanup();
      }
    },
  );
dev.run();
