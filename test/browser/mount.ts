// Mounts a React element in the test page and waits for the DOM, without `act` (which preact/compat
// lacks), so the same test bundle runs on the React and the Preact builds.
import type { ReactElement } from 'react';
import { createRoot } from 'react-dom/client';

/** Waits until `check` returns a truthy value (polling each frame), or fails after `ms`. */
export async function waitFor<T>(check: () => T, ms = 3000): Promise<NonNullable<T>> {
  const end = performance.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value as NonNullable<T>;
    if (performance.now() > end) throw new Error(`waitFor: condition not met in ${ms} ms: ${check}`);
    await new Promise((r) => requestAnimationFrame(r));
  }
}

/** Renders into a fresh container; returns it with an unmount that also removes it. */
export function mount(element: ReactElement): { host: HTMLElement; unmount(): void } {
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  root.render(element);
  return {
    host,
    unmount() {
      root.unmount();
      host.remove();
    },
  };
}
