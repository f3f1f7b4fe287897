// What no first screen needs, in one chunk that the page loads on first use and checks like every
// script it runs (src/ui/lazy-import.ts): the screens other than `/` (the build's `app:lazy-screens`,
// tools/screens.mjs), and the restore after a reload the app made. One chunk rather than one per use: esbuild puts the code a chunk shares
// with the page into a chunk of its own for each set of importers (whole modules), and each more
// file the page loads costs its own compression and round trip.
export { default as screens } from 'app:lazy-screens';
export { resumeAfterReload } from '../reload/resume-restore';
