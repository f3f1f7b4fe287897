// Self-repair and media in each browser engine: a damaged route page and an evicted file come back
// verified when a navigation needs them (on the React build); imported images and fonts, and a
// sound and a video from static/, work offline under a base (on both). The shared steps:
// lib/engine-suite.ts (engines.test.ts says how the engine files are run).
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import * as assert from 'uvu/assert';
import { cachedSri, damage } from './lib/caches';
import { EngineSuite, engineUnderTest } from './lib/engine-suite';
import { heading } from './lib/screens';
import { readPrecache, site, temp } from './lib/site';
import { until } from './lib/wait';

const { engine: ENGINE, builds: BUILDS } = engineUnderTest();

for (const [index, build] of BUILDS.entries()) {
  const s = new EngineSuite(ENGINE, build, { last: index === BUILDS.length - 1 });
  const { scenario, url, openInstalled, goOffline, assertNoProblems } = s;
  // The repair on the React build: it is the worker's alone, the same bytes in both builds (and
  // in-process: test/unit/sw-serve.test.ts). The media screen runs on both: each build bundles the
  // images and the font it imports.
  if (build === 'react')
    scenario(
      '8. self-repair: a route page damaged on disk and a file deleted from the cache come back, verified, when a navigation needs them',
      async () => {
        const tab = await openInstalled();
        const manifest = readPrecache(s.v1);
        const repaired = ['/about/', '/licenses.txt'];
        // What a browser evicting under storage pressure leaves (/licenses.txt gone), and what a
        // damaged disk or profile leaves (/about/ present, with other bytes): neither may be served.
        await damage(tab, ['/about/'], ['/licenses.txt']);
        const [damagedSri, evictedSri] = await cachedSri(tab, repaired);
        assert.ok(damagedSri && damagedSri !== manifest['/about/'], 'damaged');
        assert.is(evictedSri, null, 'deleted');
        await tab.goto(url('/about/'));
        await until('/about/ to render', async () => (await heading(tab)) === 'What this app ships');
        await until('the entries back in the cache, verified', async () =>
          (await cachedSri(tab, repaired)).every((hash, index) => hash === manifest[repaired[index]]),
        );
        assert.equal(
          await cachedSri(tab, repaired),
          repaired.map((u) => manifest[u]),
          'the bytes the build hashed',
        );
        await until('/about/ to finish loading', async () => !(await tab.text()).includes('…'));
        await tab.goto(url('/status/'));
        await until('/status/ to verify every file', async () => /(\d+) of \1 files verified/.test(await tab.text()));
        await assertNoProblems(tab);
      },
    );

  scenario(
    '14. media under /my-app/ on python: imported SVG, PNG and font show, a sound and a video from static/ play and seek, with the server down',
    async () => {
      // python serving a folder that holds my-app/: the media variant, built with --base /my-app/.
      const media = site(build, 'media');
      const root = path.join(temp(), 'www');
      mkdirSync(root);
      symlinkSync(media, path.join(root, 'my-app'));
      await s.host.setRoot(root);
      const screen = '/my-app/media-fixture/';
      const tab = await openInstalled(screen);
      await goOffline(tab);
      await tab.goto(url(screen));
      await until('the media screen to render offline', async () => (await heading(tab)) === 'Media fixture');
      const images = () =>
        tab.evaluate(() =>
          [...document.querySelectorAll<HTMLImageElement>('.media-fixture img')].map((image) => ({
            src: image.getAttribute('src'),
            drawn: image.complete && image.naturalWidth > 0,
          })),
        );
      await until('both imported images drawn offline', async () => {
        const shown = await images();
        return shown.length === 2 && shown.every((image) => image.drawn);
      });
      assert.equal(
        (await images()).map((image) => image.src?.replace(/-[A-Z0-9]{8}\./, '-HASH.')),
        ['/my-app/assets/mark-HASH.svg', '/my-app/assets/dot-HASH.png'],
      );
      // The font the screen's stylesheet imports: "X" is two ems wide in it, under 1 em in any fallback.
      const font = await tab.evaluate(async () => {
        const faces = await document.fonts.load('16px "Offline Shell Fixture"', 'X');
        const sample = document.querySelector('.media-fixture .fixture-font');
        return { faces: faces.length, width: sample?.getBoundingClientRect().width ?? 0 };
      });
      assert.ok(font.faces === 1 && font.width >= 120, `the imported font renders offline: ${JSON.stringify(font)}`);
      for (const [selector, target] of [
        ['audio', 3],
        ['video', 1.5],
      ] as const) {
        // Muted, so no engine's autoplay rule stands in the way; played until its time moves, then sought.
        const played = await tab.evaluate(
          async ({ selector, target }) => {
            const element = document.querySelector<HTMLMediaElement>(`.media-fixture ${selector}`);
            if (!element) return { problem: 'no element' };
            element.muted = true;
            try {
              await element.play();
            } catch (error) {
              return { problem: `play() refused: ${error}`, code: element.error?.code ?? null };
            }
            const started = performance.now();
            while (element.currentTime < 0.2 && performance.now() - started < 10_000)
              await new Promise((resolve) => setTimeout(resolve, 50));
            const moved = element.currentTime;
            element.pause();
            const seeked = new Promise((resolve) => element.addEventListener('seeked', resolve, { once: true }));
            element.currentTime = target;
            await Promise.race([seeked, new Promise((resolve) => setTimeout(resolve, 10_000))]);
            return { moved, duration: element.duration, time: element.currentTime, code: element.error?.code ?? null };
          },
          { selector, target },
        );
        assert.equal(played.problem, undefined, `${selector}: ${JSON.stringify(played)}`);
        assert.ok((played.moved ?? 0) >= 0.2, `${selector} played: ${JSON.stringify(played)}`);
        assert.ok(Math.abs((played.time ?? 0) - target) < 0.3, `${selector} sought to ${target} s: ${JSON.stringify(played)}`);
        assert.is(played.code, null, `${selector}: no media error`);
      }
      await assertNoProblems(tab);
    },
  );

  s.test.run();
}
