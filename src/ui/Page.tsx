// Which screen renders for which path: the screens of src/ui/screens/, one per file (tools/screens.mjs).
import screens from 'app:screens';
import { withBase } from '../base';
import { titleOf } from './router';

/** The screen of a route under its <h1>, the route's title (so a title is written once, in the screen's file). */
export function Page({ path }: { path: string }) {
  const Screen = screens[path];
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
      There is no page here. <a href={withBase('/')}>Go to the home screen</a>.
    </p>
  );
}
