// The router's rules in a DOM (happy-dom): which clicks become client-side navigations, and what a
// navigation does (URL, route store, title, focus); Back/Forward through popstate.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { navigate, route, routePath, startRouter, titleOf } from '../../src/ui/router';
import { APP_TITLE } from '../../src/contract/app-name';
import { present } from '../present';
import { installDom, type FakeDom } from './dom';

const test = suite('router');
let dom: FakeDom;
let stop: () => void;
let unsubscribe: () => void;
let seen: string[];
let taken = false;

// One window for the suite, as for a page that stays open; each test starts back at /.
test.before(() => {
  dom = installDom({ url: 'https://app.example/' });
  // Last in the bubbling path (after the router's listener on document): notes whether the router
  // took the click, then cancels it, so happy-dom does not really follow the link away.
  dom.win.addEventListener('click', (e) => {
    taken = e.defaultPrevented;
    e.preventDefault();
  });
});
test.after(() => dom.uninstall());

test.before.each(() => {
  dom.win.history.replaceState(null, '', 'https://app.example/');
  document.body.innerHTML = `<a id="status" href="/status/">Offline readiness</a><a id="about" href="/about">About, no slash</a>
    <a id="file" href="/audit.json">audit</a><a id="away" href="https://elsewhere.example/status/">away</a>
    <a id="blank" href="/about/" target="_blank">new tab</a><a id="noref">no href</a>
    <a id="skip" href="#main">skip</a><a id="unknown" href="/nope">nope</a><main id="main" tabindex="-1"><h1>x</h1></main>`;
  stop = startRouter();
  seen = [];
  unsubscribe = route.subscribe(() => seen.push(route.getSnapshot()));
});
test.after.each(() => {
  stop();
  unsubscribe();
});

/** Clicks a link with the given modifiers; returns whether the router took it (default prevented). */
function click(id: string, init: MouseEventInit = {}): boolean {
  taken = false;
  present(document.getElementById(id), `#${id}`).dispatchEvent(
    new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init }),
  );
  return taken;
}

test('route paths carry a trailing slash, so /status and /status/ are one route', () => {
  assert.is(routePath('/status'), '/status/');
  assert.is(routePath('/status/'), '/status/');
  assert.is(routePath('/'), '/');
  assert.is(titleOf('/status/'), 'Offline readiness');
  assert.is(titleOf('/nope/'), 'Not found');
});

test('a plain click on a link to a route navigates in place: URL, store, title, focus on <main>', () => {
  assert.ok(click('status'));
  assert.is(location.pathname, '/status/');
  assert.equal(seen, ['/status/']);
  assert.is(document.title, `Offline readiness · ${APP_TITLE}`);
  assert.is(document.activeElement?.id, 'main');
  assert.is(history.length, 2, 'one history entry was pushed');
  assert.ok(click('about'));
  assert.is(route.getSnapshot(), '/about/');
  assert.is(document.title, `What this app ships · ${APP_TITLE}`);
});

test('clicking the link of the current page pushes no second history entry', () => {
  click('status');
  const n = history.length;
  assert.ok(click('status'));
  assert.is(history.length, n);
});

test('modified, middle and new-tab clicks, and anchors without href, are left to the browser', () => {
  for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }])
    assert.not.ok(click('status', init), JSON.stringify(init));
  assert.not.ok(click('blank'));
  assert.not.ok(click('noref'));
  assert.is(route.getSnapshot(), '/');
});

test('links to other origins, to files, to unknown paths and in-page anchors keep their default', () => {
  for (const id of ['away', 'file', 'unknown', 'skip']) assert.not.ok(click(id), id);
  assert.equal(seen, []);
});

test('a click the page already handled (defaultPrevented) is not taken again', () => {
  present(document.getElementById('status'), '#status').addEventListener('click', (e) => e.preventDefault());
  click('status');
  assert.is(route.getSnapshot(), '/');
  assert.is(location.pathname, '/');
});

test('Back and Forward (popstate) show the route of the URL and update the title', () => {
  navigate('/status/');
  navigate('/about/');
  history.replaceState(null, '', '/status/'); // what the browser has done when popstate fires
  dispatchEvent(new PopStateEvent('popstate'));
  assert.is(route.getSnapshot(), '/status/');
  assert.is(document.title, `Offline readiness · ${APP_TITLE}`);
});

test('after stop, clicks are plain links again', () => {
  stop();
  assert.not.ok(click('status'));
  stop = () => {};
});

test.run();
