// Installability (Chromium's own check, over the DevTools protocol) and screenshots of every screen,
// light and dark, phone and desktop width, for a person to look at (test-output/screenshots/).
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SECURITY_HEADERS } from '../../tools/headers.mjs';
import { settle } from './lib/app';
import { freshContext, launchWithProfile } from './lib/browser';
import { startHost } from './lib/hosts';
import { APP_NAME, BUILDS, sharedOrigin, site } from './lib/site';
import { SECOND_BASE, TEST_BASE } from '../harness/test-sites.mjs';
import { beforeAllTests } from './lib/hooks';
import { shareChromium, type Shared } from './lib/suite';
import { WAIT } from './lib/wait';
import { HOME, SCREENS } from './lib/screens';

const SHOTS = path.join(process.cwd(), 'test-output', 'screenshots');

/** What Chromium's own checks say of the app at a URL: its installability errors, its manifest's errors and the app id. */
interface AppCheck {
  installabilityErrors: string[];
  manifestErrors: string[];
  /** The manifest's id as Chromium resolved it (Page.getAppId; without an id in the manifest, none). */
  appId: string | undefined;
}

/** Chromium's checks (DevTools' Page.getInstallabilityErrors, getAppManifest, getAppId) of the site at `url`, with the worker allowed to install first. */
async function chromiumChecks(url: string): Promise<AppCheck> {
  // Incognito contexts (Playwright's newContext) are never installable: a real profile is needed.
  const chromium = await launchWithProfile();
  try {
    const page = await chromium.context.newPage();
    await page.goto(url);
    await settle(page, HOME.h1);
    const cdp = await chromium.context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    const manifest = await cdp.send('Page.getAppManifest');
    const { appId } = await cdp.send('Page.getAppId');
    return {
      installabilityErrors: installabilityErrors.map((e) => e.errorId),
      manifestErrors: manifest.errors.map((e) => e.message),
      appId,
    };
  } finally {
    await chromium.close();
  }
}

/** Chromium's installability errors for the site at `url`, with the worker allowed to install first. */
const installabilityErrors = async (url: string): Promise<string[]> => (await chromiumChecks(url)).installabilityErrors;

/** Width and height from a PNG's IHDR chunk (bytes 16-23), after checking the signature. */
function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  assert.equal([...b.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], `${file} is a PNG`);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

for (const build of BUILDS) {
  const test = suite<Shared>(`ui install and screenshots (${build.name})`);
  const dist = site(build.name, 'v1');
  shareChromium(test);
  beforeAllTests(test, () => {
    mkdirSync(SHOTS, { recursive: true });
  });

  test("Chromium finds the app installable, its manifest without errors and with an id of the app's name and base, at / and for two apps under two bases of one origin", async () => {
    const root = await startHost('preview', dist);
    try {
      assert.equal(await chromiumChecks(root.url), {
        installabilityErrors: [],
        manifestErrors: [],
        appId: new URL(`/?app=${APP_NAME}`, root.url).href,
      });
    } finally {
      await root.close();
    }
    const shared = await startHost(
      'preview',
      sharedOrigin({ [TEST_BASE]: site(build.name, 'base'), [SECOND_BASE]: site(build.name, 'base2') }),
    );
    try {
      for (const base of [TEST_BASE, SECOND_BASE]) {
        const check = await chromiumChecks(new URL(base, shared.url).href);
        assert.equal(
          check,
          {
            installabilityErrors: [],
            manifestErrors: [],
            appId: new URL(`${base}?app=${APP_NAME}`, shared.url).href,
          },
          base,
        );
      }
    } finally {
      await shared.close();
    }
  });

  test('the same check reports a manifest without usable icons (it can fail)', async () => {
    const host = await startHost('preview', dist, {
      intercept: (req, res) => {
        if (req.url !== '/manifest.webmanifest') return false;
        const manifest = JSON.parse(readFileSync(path.join(dist, 'manifest.webmanifest'), 'utf8'));
        res
          .writeHead(200, {
            'Content-Type': 'application/manifest+json',
            'Content-Security-Policy': SECURITY_HEADERS['Content-Security-Policy'],
          })
          .end(JSON.stringify({ ...manifest, icons: [] }));
        return true;
      },
    });
    try {
      assert.ok((await installabilityErrors(host.url)).includes('manifest-missing-suitable-icon'));
    } finally {
      await host.close();
    }
  });

  test('every screen fits 320 px up, follows the colour scheme, and is saved as a PNG (light and dark, 375 and 1280 px)', async ({
    browser,
  }) => {
    const host = await startHost('preview', dist);
    try {
      // One page per screen: the colour scheme and the width change in place, as when a person
      // switches their system theme or resizes the window.
      const context = await freshContext(browser, { serviceWorkers: 'block' });
      const page = await context.newPage();
      for (const s of SCREENS) {
        await page.goto(new URL(s.path, host.url).href);
        await settle(page, s.h1);
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          for (const width of [320, 375, 1280]) {
            await page.setViewportSize({ width, height: 800 });
            // Nothing may be wider than the viewport: the page itself never scrolls sideways.
            assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${s.path} fits ${width} px`);
            const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
            assert.is(bg, colorScheme === 'dark' ? 'rgb(21, 23, 26)' : 'rgb(251, 251, 250)', `${s.path} ${colorScheme} background`);
            if (width === 320) continue;
            const file = path.join(SHOTS, `${build.name}-${s.name}-${colorScheme}-${width}.png`);
            rmSync(file, { force: true });
            await page.screenshot({ path: file, fullPage: true, timeout: WAIT.timeout });
            const size = pngSize(file);
            assert.is(size.width, width, file);
            assert.ok(size.height >= 400, `${file} is a whole page`);
          }
        }
      }
      await context.close();
    } finally {
      await host.close();
    }
  });

  test.run();
}
