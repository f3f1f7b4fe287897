// Which screen renders for which path. Paths are the routes of src/routes.json (trailing slash).
import { withBase } from '../base';
import type { FunctionComponent } from 'react';
import { About } from './about/About';
import { Notes } from './notes/Notes';
import { titleOf } from './router';
import { Status } from './status/Status';

const SCREENS: Record<string, FunctionComponent> = { '/': Notes, '/status/': Status, '/about/': About };

/** The screen of a route under its <h1>, the route's title (so a title is written once, in routes.json). */
export function Page({ path }: { path: string }) {
  const Screen = SCREENS[path];
  return (
    <>
      <h1>{titleOf(path)}</h1>
      {Screen ? <Screen /> : <NotFound />}
    </>
  );
}

/** What any path that is not one of ours shows (also dist/404.html). */
function NotFound() {
  return (
    <p>
      There is no page here. <a href={withBase('/')}>Go to your notes</a>.
    </p>
  );
}
