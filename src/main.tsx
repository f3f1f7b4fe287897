// Entry: starts the framework-free offline core, then hydrates the prerendered UI.
import { useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { keepWorkOnDevReload, reportRestore } from './dev/keep-work';
import { adoptEarlierReleases } from './migrations/page'; // Delete with src/migrations/
import { startNotes } from './notes/store';
import { startConnectivity } from './reload/connectivity';
import { startFieldMemory } from './reload/form-state';
import { importChecked, LATER_MODULE } from './ui/lazy-import';
import { startQuietMomentWatch } from './reload/quiet-moment';
import { startReconnect } from './reload/reconnect';
import { skipRegistrationInDev, startRegistration } from './worker-client/start-registration';
import { hasResumePoint, startFocusMemory } from './reload/resume-point';
import { App } from './ui/App';
import { otherScreensFiles } from './ui/other-screens';
import { routeShown, startRouter } from './ui/router';
import './ui/app.css';

adoptEarlierReleases(); // Before anything reads storage. Delete with src/migrations/
startConnectivity();
startQuietMomentWatch();
startFocusMemory();
startFieldMemory();
startReconnect();
startNotes();
startRouter();

/**
 * After a reload the app made itself: the fields, the focused one's caret and the scroll, once the
 * screen shows them. Run from an effect, so after hydration: a value put into a field before its
 * component is hydrated is one the component's state never hears of. The restore's code is loaded
 * only then (src/ui/later.ts; from the worker's cache: the app reloads itself only once installed).
 */
function ResumeAfterReload() {
  useEffect(() => {
    // `<html data-running>`: the screens now answer input, and a restore the page owed has started.
    // A value put into a field before its component is hydrated is one its state never hears of,
    // so tests (ours, a builder's) wait for it.
    const running = () => {
      document.documentElement.dataset.running = '';
    };
    if (!hasResumePoint()) return running();
    // In dev, the terminal hears what a reload on save could not put back.
    importChecked(LATER_MODULE, () => import('./ui/later'))
      .then((later) => later.resumeAfterReload(__DEV__ ? reportRestore : undefined))
      .catch(() => {})
      .finally(running);
  }, []);
  return null;
}

/** The app and, beside it, the resume point's restore (it renders nothing, so the prerendered HTML still matches). */
const app = (
  <>
    <App />
    <ResumeAfterReload />
  </>
);

// The build refuses a template without #root (tools/pipeline/html.mjs): a page without it is not ours.
const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root to render into');
if (__DEV__) {
  // Dev builds are not prerendered, never register the worker (nothing stale is served while
  // developing), and reload when esbuild has rebuilt (the dev client, assets/dev-client.js, hears
  // it) as the shell's own reloads do: the screen, scroll, focus, caret and fields come back.
  skipRegistrationInDev();
  keepWorkOnDevReload();
  routeShown().then(() => createRoot(root).render(app));
} else {
  startRegistration(otherScreensFiles);
  // The prerendered screen is hydrated with its own code: a screen loaded on use (src/ui/later.ts)
  // is loaded first (its page preloads it, so it is usually here already). Without it, the page is
  // rendered afresh, saying so: Preact keeps prerendered markup that differs from what it hydrates.
  routeShown().then((loaded) => {
    if (loaded) {
      hydrateRoot(root, app);
      return;
    }
    root.replaceChildren();
    createRoot(root).render(app);
  });
}
