import { connectivity } from '../offline/connectivity';
import { useStore } from './useStore';

/** Says so while the browser is offline, and that nothing here depends on the network. */
export function OfflineBanner() {
  return useStore(connectivity).online ? null : <p className="offline">You are offline; everything here still works.</p>;
}
