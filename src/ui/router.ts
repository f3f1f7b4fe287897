// Client-side routing with the History API, framework-free: a store of the current route path.
// Links stay real <a href> (new tab, copy link, the 404 page of any host); once started, a
// same-origin left-click on a link to one of our routes becomes pushState instead of a page load.
// A route whose screen is a chunk of its own (screen-loader.ts) is shown once its code is here.
import routes from 'app:routes';
import { APP_TITLE } from '../contract/app-name';
import { withoutBase } from '../contract/base';
import { createStore, type Store } from '../core/store';
import { isScreen, loadScreen, screenOf } from './screen-loader';

/** A path as the route table spells it: with a trailing slash (`/status` and `/status/` alike). */
export const routePath = (pathname: string): string => pathname.replace(/\/?$/, '/');

/** The route's title, or "Not found" for a path that is not one of ours. */
export const titleOf = (path: string): string => routes.find((route) => route.path === path)?.title ?? 'Not found';

// Set from the URL by startRouter() before hydration, or by prerenderRoute() at build time.
const state = createStore('/');

/**
 * The current route path (trailing slash). The route is in the URL, not on the device, so the
 * prerendered HTML of a route shows that route: its server snapshot is the current route.
 */
export const route: Store<string> = { ...state, getServerSnapshot: state.getSnapshot };

/** At build time: makes `path` the current route, before rendering its HTML. */
export function prerenderRoute(path: string): void {
  state.set(path);
}

let shown: Promise<boolean> = Promise.resolve(true);

/**
 * Resolves once the route of the current URL is shown: to true with its screen's code here (the
 * page hydrates then), false when that code could not be loaded (the prerendered screen cannot be
 * hydrated without it).
 */
export const routeShown = (): Promise<boolean> => shown;

/**
 * Shows the route of the current URL once its screen's code is here: store, document title, focus
 * (what a page load would do). When that code cannot be loaded, a client-side navigation becomes a
 * page load of the same URL (which asks again, and says so if it fails again).
 */
function show(focus: boolean): void {
  const path = routePath(withoutBase(location.pathname));
  // At once when nothing is to load (the page's own screens, those loaded before, unknown paths).
  if (screenOf(path) || !isScreen(path)) {
    showLoaded(path, focus);
    shown = Promise.resolve(true);
    return;
  }
  shown = loadScreen(path).then(
    () => {
      showLoaded(path, focus);
      return true;
    },
    () => {
      if (focus) location.reload();
      else showLoaded(path, focus);
      return false;
    },
  );
}

/** Shows `path`, unless the URL moved on while its code loaded. */
function showLoaded(path: string, focus: boolean): void {
  if (routePath(withoutBase(location.pathname)) !== path) return;
  state.set(path);
  document.title = `${titleOf(path)} · ${APP_TITLE}`;
  // A page load puts focus at the top; a client-side one must move it too, or a screen reader
  // stays on the clicked link with no sign the content changed. <main> has tabindex=-1.
  if (focus) document.getElementById('main')?.focus({ preventScroll: true });
}

/** Goes to `href` (one of our routes) without a page load. */
export function navigate(href: string): void {
  const url = new URL(href, location.href);
  if (url.href !== location.href) history.pushState(null, '', url.href);
  scrollTo(0, 0);
  show(true);
}

/** Turns a plain left-click on a link to one of our routes into a client-side navigation. */
function onClick(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0) return;
  // Modified clicks mean "new tab/window": the browser's job.
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = (event.target as Element).closest?.('a');
  // So are links with a target and links to other origins.
  if (!link || link.target || link.origin !== location.origin) return;
  // In-page anchors (the skip link) and files (/audit.json) are not routes.
  if (link.hash && link.pathname === location.pathname) return;
  if (!routes.some((route) => route.path === routePath(withoutBase(link.pathname)))) return;
  event.preventDefault();
  navigate(link.href);
}

const onPop = () => show(true);

/** Starts intercepting link clicks and Back/Forward; returns a stop function. */
export function startRouter(): () => void {
  show(false);
  document.addEventListener('click', onClick);
  addEventListener('popstate', onPop);
  return () => {
    document.removeEventListener('click', onClick);
    removeEventListener('popstate', onPop);
  };
}
