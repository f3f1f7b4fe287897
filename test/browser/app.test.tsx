import routes from 'app:routes';
import * as assert from 'uvu/assert';
import { App } from '../../src/ui/App';
import { mount, waitFor } from './mount';

describe('App shell in Chromium', () => {
  it('renders a banner, a labelled main navigation with real links, main and footer', async () => {
    const { host, unmount } = mount(<App />);
    await waitFor(() => host.querySelector('main'));
    assert.ok(host.querySelector('header'));
    assert.ok(host.querySelector('footer'));
    const links = [...host.querySelectorAll<HTMLAnchorElement>('nav[aria-label="Main"] a')].map((a) => a.getAttribute('href'));
    assert.equal(
      links,
      routes.map((route) => route.path),
    );
    unmount();
  });
});
