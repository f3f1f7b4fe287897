import routes from 'app:routes';
import { APP_TITLE } from '../contract/app-name';
import { withBase } from '../contract/base';
import { Banners } from './Banners';
import { Page } from './Page';
import { route } from './router';
import { useStore } from './useStore';

/** The app shell: skip link, header with real links (they work before the JS loads), banners, main, footer. */
export function App() {
  const here = useStore(route);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="bar">
        <a className="brand" href={withBase('/')}>
          {APP_TITLE}
        </a>
        <nav aria-label="Main">
          {routes.map((route) => (
            <a key={route.path} href={withBase(route.path)} aria-current={route.path === here ? 'page' : undefined}>
              {route.title}
            </a>
          ))}
        </nav>
      </header>
      <Banners />
      <main id="main" tabIndex={-1}>
        <Page path={here} />
      </main>
      <footer className="foot">Works offline. Nothing leaves your device.</footer>
    </>
  );
}
