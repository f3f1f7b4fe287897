import routes from '../routes.json';
import { Banners } from './Banners';
import { Page } from './pages';

/** The app shell: header with real links (they work before the JS loads), banners, main, footer. */
export function App() {
  const here = location.pathname.replace(/\/?$/, '/');
  const route = routes.find((r) => r.path === here);
  return (
    <>
      <header className="bar">
        <a className="brand" href="/">offline-shell</a>
        <nav aria-label="Main">
          {routes.map((r) => (
            <a key={r.path} href={r.path} aria-current={r.path === here ? 'page' : undefined}>{r.title}</a>
          ))}
        </nav>
      </header>
      <Banners />
      <main id="main" tabIndex={-1}>
        <Page path={route ? route.path : null} title={route ? route.title : 'Not found'} />
      </main>
      <footer className="foot">Works offline. Nothing leaves your device.</footer>
    </>
  );
}
