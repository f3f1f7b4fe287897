import { applyUpdate, registration } from '../offline/registration';
import { useStore } from './useStore';

/** The worker's news: precache progress and "Ready to work offline" on first install, and a waiting new version. */
export function WorkerBanner() {
  const { state, progress } = useStore(registration);
  if (state === 'update-waiting')
    return (
      <p>
        A new version is ready. <button type="button" onClick={applyUpdate}>Reload to update</button>
      </p>
    );
  if (state === 'installing')
    return <p>Saving the app for offline use{progress?.total ? `: ${progress.done} of ${progress.total} files` : '…'}</p>;
  // progress is set only in the page that saw the first install, so ordinary visits stay quiet.
  return state === 'ready' && progress ? <p>Ready to work offline.</p> : null;
}
