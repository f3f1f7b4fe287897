// The app's screens as the tests visit them, and what a screen shows, read the same way in every
// engine: each reader runs one function in the page (a Playwright Page, or a Tab of lib/driver.ts).
import { screensUnderTest } from '../../harness/field-screen.mjs';
import type { RunsInPage } from './driver';

/** A screen of the app as the tests visit it: its name (for files), path and heading. */
export interface ScreenVisit {
  name: string;
  path: string;
  h1: string;
}

/** The visit of a screen as tools/screens.mjs lists it. */
function visitOf({ name, path, title }: { name: string; path: string; title: string }): ScreenVisit {
  return { name, path, h1: title };
}

/** What the tests run on: the app's screens, the test sites' and the one to type into (harness/field-screen.mjs). */
const UNDER_TEST = screensUnderTest(process.cwd());

/**
 * The routes of the test sites, in navigation order: the app's screens (src/ui/screens/, read by
 * tools/screens.mjs), and test/fixtures/screens/ when the app has no text field.
 */
export const ROUTES: ScreenVisit[] = UNDER_TEST.screens.map(visitOf);

/** The screen the guarantee tests type into: the app's first with a text field, or the fixture's. */
export const FIELD_SCREEN: ScreenVisit = visitOf(UNDER_TEST.fieldScreen);

/** A path that is no route: the not-found screen. */
export const NOT_FOUND: ScreenVisit = { name: 'not-found', path: '/no-such-page', h1: 'Not found' };

/** Every screen of the app, with the heading it shows: each route, then the not-found screen. */
export const SCREENS: ScreenVisit[] = [...ROUTES, NOT_FOUND];

/** A deep link that is no route, with a query and a fragment: the shell renders "Not found". */
export const DEEP_LINK: ScreenVisit = { name: 'deep-link', path: '/a-section/2026/a-deep-link?x=1#top', h1: 'Not found' };

/** The screen's <h1>, or '' before the app rendered it. */
export const heading = (page: RunsInPage): Promise<string> => page.evaluate(() => document.querySelector('h1')?.textContent ?? '', null);

/**
 * The Status screen's value for a row whose term is exactly `name` ("Scope", "State", ...), read
 * once: null when it is not shown. (lib/app.ts statusFact() is the Playwright locator that waits for it.)
 */
export const statusRow = (page: RunsInPage, name: string): Promise<string | null> =>
  page.evaluate(
    (row) => [...document.querySelectorAll('dt')].find((dt) => dt.textContent === row)?.nextElementSibling?.textContent ?? null,
    name,
  );

/** The variant the page runs: 'v2' for the `v2` test site, '' for this checkout. */
export const variant = (page: RunsInPage): Promise<string> => page.evaluate(() => document.documentElement.dataset.variant ?? '', null);

/**
 * Whether every stylesheet of the page has rules to read. One the page's own policy refused has
 * none: no sheet in Firefox and WebKit, an unreadable one in Chromium (measured with style-src 'none').
 */
export const stylesheetsApply = (page: RunsInPage): Promise<boolean> =>
  page.evaluate(
    () =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every((link) => {
        try {
          return (link.sheet?.cssRules.length ?? 0) > 0;
        } catch {
          return false;
        }
      }),
    null,
  );

/** The screen at `/`: the app's home screen. */
export const HOME: ScreenVisit = ROUTES.find((route) => route.path === '/') ?? { name: 'index', path: '/', h1: '' };
