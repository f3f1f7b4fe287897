// Which screen renders for which path: the screens of src/ui/screens/, one per file (tools/screens.mjs).
import { withBase } from '../contract/base';
import { titleOf } from './router';
import { isScreen, screenOf } from './screen-loader';

/** The screen of a route under its <h1>, the route's title (so a title is written once, in the screen's file). */
export function Page({ path }: { path: string }) {
  const Screen = screenOf(path);
  return (
    <>
      <h1>{titleOf(path)}</h1>
      {Screen ? <Screen /> : isScreen(path) ? <NotLoaded /> : <NotFound />}
    </>
  );
}

/** What a screen whose code could not be loaded (no network, or bytes that fail their hash) shows instead. */
function NotLoaded() {
  return <p role="alert">This screen could not be loaded. Check the connection, then reload the page.</p>;
}

/** What any path that is not one of ours shows (also dist/404.html). */
function NotFound() {
  return (
    <p>
      There is no page here. <a href={withBase('/')}>Go to the home screen</a>.
    </p>
  );
}
