// The origin's service worker registration as the page sees it, read the same way in every engine.
import type { RunsInPage } from './driver';

/** A registration as plain data: scope, the active worker's script and state, what waits or installs, who controls the page. */
export interface RegistrationSeen {
  scope: string;
  script: string | null;
  active: ServiceWorkerState | null;
  waiting: boolean;
  installing: boolean;
  updateViaCache: ServiceWorkerUpdateViaCache;
  controller: string | null;
  /** Same object only when the active worker is the one controlling this document. */
  controlledByActive: boolean;
}

/** The origin's service worker registration, as plain data (null when there is none). */
export const registrationOf = (page: RunsInPage): Promise<RegistrationSeen | null> =>
  page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    if (!reg) return null;
    return {
      scope: reg.scope,
      script: reg.active?.scriptURL ?? null,
      active: reg.active?.state ?? null,
      waiting: !!reg.waiting,
      installing: !!reg.installing,
      updateViaCache: reg.updateViaCache,
      controller: navigator.serviceWorker.controller?.scriptURL ?? null,
      controlledByActive: !!reg.active && navigator.serviceWorker.controller === reg.active,
    };
  }, null);
