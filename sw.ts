// Placeholder worker (the real one is issue #3): installs and claims nothing, serves nothing.
// The build injects these constants (esbuild `define`).
declare const __VERSION__: string;
declare const __PRECACHE__: { url: string; integrity: string }[];
declare const __KILL_SWITCH__: boolean;
declare const __CACHE_PREFIX__: string;
declare const self: ServiceWorkerGlobalScope;
export {}; // a module, so `self` above shadows the lib's WorkerGlobalScope typing

self.addEventListener('message', (event) => {
  if (event.data?.type === 'GET_VERSION') event.ports[0]?.postMessage({ version: __VERSION__, files: __PRECACHE__.length, killSwitch: __KILL_SWITCH__, prefix: __CACHE_PREFIX__ });
});
