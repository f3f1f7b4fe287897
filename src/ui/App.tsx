import routes from '../routes.json';

/** The app shell: header with real links (they work before the JS loads), main, footer. */
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
      <main id="main" tabIndex={-1}>
        <h1>{route ? route.title : 'Not found'}</h1>
      </main>
      <footer className="foot">Works offline. Nothing leaves your device.</footer>
    </>
  );
}
