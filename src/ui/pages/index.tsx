// Which screen renders for which path. Paths are the routes of src/routes.json (trailing slash).
import type { ReactElement } from 'react';
import { About } from '../about/About';
import { Status } from '../status/Status';

/** The screen of a route: its <h1> and content. */
export function Page({ path, title }: { path: string | null; title: string }): ReactElement {
  // Before the switch, so the switch (and its '/' case, the Notes screen) merges untouched.
  if (path === '/status/') return <Status />;
  if (path === '/about/') return <About />;
  switch (path) {
    case '/':
    case '/status/':
    case '/about/':
      return <h1>{title}</h1>;
    default:
      return (
        <>
          <h1>Not found</h1>
          <p>
            There is no page here. <a href="/">Go to your notes</a>.
          </p>
        </>
      );
  }
}
