import { OfflineBanner } from './OfflineBanner';
import { WorkerBanner } from './WorkerBanner';

/**
 * Status banners (offline, installing, ready, update waiting) in one polite live region, so screen
 * readers announce changes. It sits in the page flow above <main>, never over content.
 */
export function Banners() {
  return <div className="banners" role="status" aria-live="polite"><OfflineBanner /><WorkerBanner /></div>;
}
