// The browser tests' one DOM helper (@web/test-runner, a real Chromium page): mounts a React element
// in the test page and waits for the DOM, without `act` (which preact/compat lacks), so the same
// test bundle runs on the React and the Preact builds. Unit tests get happy-dom from
// test/unit/dom.ts; end-to-end tests read built pages through test/e2e/lib/.
import type { ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import { until } from '../e2e/lib/wait';

/** Waits until `check` returns a truthy value (lib/wait's until, polling every 25 ms), or fails after `ms`. */
export const waitFor = <T>(check: () => T, ms = 3000): Promise<T> => until(`${check}`, check, ms);

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
