// What no first screen needs, in one chunk that the page loads on first use and checks like every
// script it runs (src/ui/lazy-import.ts): the screens other than `/` (the build's `app:lazy-screens`,
// tools/screens.mjs), the restore after a reload the app made, and what a screen's controls do
// (a backup's download and restore, say). One chunk rather than one per use: esbuild puts the code
// a chunk shares with the page into a chunk of its own for each set of importers (whole modules),
// and each more file the page loads costs its own compression and round trip (measured: the demo's
// backup code as a chunk of its own split the first screen's script into four files instead of
// two, and took a third of the bytes off it that it takes here).
export { default as screens } from 'app:lazy-screens';
export { resumeAfterReload } from '../reload/resume-restore';
export { downloadBackup, restoreFrom } from './screens/notes/backup-actions';
