// Which screen renders for which path. Paths are the routes of src/routes.json (trailing slash).
import type { ReactElement } from 'react';
import { About } from '../about/About';
import { Status } from '../status/Status';
import { Notes } from '../notes/Notes';

/** The screen of a route: its <h1> and content. */
export function Page({ path, title }: { path: string | null; title: string }): ReactElement {
  switch (path) {
    case '/':
      return (
        <>
          <h1>{title}</h1>
          <Notes />
        </>
      );
    case '/status/':
      return <Status />;
    case '/about/':
      return <About />;
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
