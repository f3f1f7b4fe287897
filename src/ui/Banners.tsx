// The status banners: offline, installing, ready, a failed install tried again, update waiting.
import { connectivity } from '../reload/connectivity';
import { registration } from '../worker-client/registration-store';
import { applyUpdate } from '../worker-client/update-reload';
import { formatTime } from '../core/format';
import { noRoomForApp } from './no-room';
import { useStore } from './useStore';

/**
 * Status banners in one polite live region, so screen readers announce changes. It sits in the
 * page flow above <main>, never over content.
 */
export function Banners() {
  return (
    <div className="banners" role="status" aria-live="polite">
      <OfflineBanner />
      <WorkerBanner />
    </div>
  );
}

/** Says so while the browser is offline, and that nothing here depends on the network. */
function OfflineBanner() {
  const { online } = useStore(connectivity);
  if (online) return null;
  return <p className="offline">You are offline; everything here still works.</p>;
}

/**
 * The worker's news: precache progress and "Ready to work offline" on first install, a failed
 * first install and when it is tried again, and a waiting new version.
 */
function WorkerBanner() {
  const { state, progress, retryAt, installFailure } = useStore(registration);
  if (state === 'update-waiting') {
    return (
      <p>
        A new version is ready.{' '}
        <button type="button" onClick={applyUpdate}>
          Reload to update
        </button>
      </p>
    );
  }
  if (state === 'installing') {
    const counted = progress?.total ? `: ${progress.done} of ${progress.total} files` : '…';
    return <p>Saving the app for offline use{counted}</p>;
  }
  if (state === 'error' && installFailure === 'no-room') return <p>{noRoomForApp(retryAt)}</p>;
  if (state === 'error' && retryAt)
    return <p>Offline use is not ready yet: saving the app failed. Trying again at {formatTime(retryAt)}.</p>;
  // progress is set only in the page that saw the first install, so ordinary visits stay quiet.
  if (state === 'ready' && progress) return <p>Ready to work offline.</p>;
  return null;
}
