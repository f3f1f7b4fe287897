import routes from 'app:routes';
import * as assert from 'uvu/assert';
import { App } from '../../src/ui/App';
import { startRouter } from '../../src/ui/router';
import { mount, waitFor } from './mount';
import { present } from '../present';
import { APP_TITLE } from '../../src/contract/app-name';

/** The home screen's title, as the app's own route table (src/ui/screens/index.tsx) has it. */
const HOME_TITLE = present(
  routes.find((route) => route.path === '/'),
  'the route of /',
).title;

describe('client-side routing in Chromium (App + router)', () => {
  const start = location.href;
  let stop: () => void;
  afterEach(() => {
    stop();
    history.replaceState(null, '', start); // the test runner's own page URL
  });

  it('a click on a nav link renders that screen in place, marks it current and focuses <main>', async () => {
    history.replaceState(null, '', '/');
    stop = startRouter();
    const { host, unmount } = mount(<App />);
    await waitFor(() => host.querySelector('h1')?.textContent === HOME_TITLE);
    const before = history.length;
    present(host.querySelector<HTMLAnchorElement>('nav a[href="/status/"]'), 'a link to /status/ in the nav').click();
    await waitFor(() => host.querySelector('h1')?.textContent === 'Offline readiness');
    assert.is(location.pathname, '/status/');
    assert.is(history.length, before + 1);
    assert.is(document.title, `Offline readiness · ${APP_TITLE}`);
    assert.is(document.activeElement, host.querySelector('main'));
    assert.is(host.querySelector('nav a[aria-current="page"]')?.textContent, 'Offline readiness');
    assert.ok(host.querySelector('h2'), 'the status screen, not a placeholder');
    unmount();
  });

  it('Back returns to the previous screen without a page load', async () => {
    history.replaceState(null, '', '/about/');
    stop = startRouter();
    const { host, unmount } = mount(<App />);
    await waitFor(() => host.querySelector('h1')?.textContent === 'What this app ships');
    (window as unknown as { marker: number }).marker = 1;
    present(host.querySelector<HTMLAnchorElement>('a.brand'), 'the brand link').click();
    await waitFor(() => host.querySelector('h1')?.textContent === HOME_TITLE);
    history.back();
    await waitFor(() => host.querySelector('h1')?.textContent === 'What this app ships');
    assert.is(location.pathname, '/about/');
    assert.is((window as unknown as { marker?: number }).marker, 1);
    unmount();
  });

  it('an unknown path shows the not-found screen inside the shell, with a way home', async () => {
    history.replaceState(null, '', '/no/such/page');
    stop = startRouter();
    const { host, unmount } = mount(<App />);
    await waitFor(() => host.querySelector('h1')?.textContent === 'Not found');
    assert.is(document.title, `Not found · ${APP_TITLE}`);
    assert.ok(host.querySelector('main a[href="/"]'));
    assert.not.ok(host.querySelector('nav a[aria-current]'), 'no nav link claims to be current');
    unmount();
  });
});
