// Two tabs on two versions of the notes' stored shape, in real Chromium on one origin: a tab on the
// current code, and one on a build whose notes are stored as version 2 (a copy of the project with
// that one change). The newer tab saves; the older tab, with an edit it had not saved yet, turns
// outdated, keeps that edit aside and says so; its Reload brings the newer version, with the edit.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { freshContext } from '../lib/browser';
import { startHost } from '../lib/hosts';
import { firstNote, newNotesPage, NOTES_KEY, shownNotes, storedText } from './lib/notes';
import { beforeAllTests } from '../lib/hooks';
import { BUILDS, cleanup, copySources, site } from '../lib/site';
import { shareChromium, type Shared } from '../lib/suite';
import { until, WAIT } from '../lib/wait';

/** The project with its notes stored as version 2 (the shape unchanged: upgrade() keeps it), built in both builds. */
function buildVersion2(): Record<string, string> {
  const project = copySources();
  const store = path.join(project, 'src/notes/store.ts');
  const source = readFileSync(store, 'utf8');
  assert.ok(source.includes('  version: 1,'), 'src/notes/store.ts declares version 1');
  writeFileSync(store, source.replace('  version: 1,', '  version: 2,\n  upgrade: (data) => data,'));
  const dists: Record<string, string> = {};
  for (const { name, preact } of BUILDS) {
    dists[name] = path.join(project, `dist-${name}`);
    const built = spawnSync(process.execPath, ['build.mjs', '--out', dists[name], ...(preact ? ['--preact'] : [])], {
      cwd: project,
      encoding: 'utf8',
    });
    assert.is(built.status, 0, `the version 2 build: ${built.stderr}`);
  }
  return dists;
}

let version2: Record<string, string> = {};
for (const build of BUILDS) {
  const test = suite<Shared>(`two tabs on two versions of the stored notes (${build.name})`);
  if (build === BUILDS[0])
    beforeAllTests(test, () => {
      version2 = buildVersion2();
    });
  shareChromium(test, () => startHost('preview', site(build.name, 'v1')));
  if (build === BUILDS.at(-1)) test.after(cleanup);

  test('the older tab keeps its unsaved edit aside, says so, and its Reload brings the newer version with the edit', async ({
    browser,
    host,
  }) => {
    // No worker: each tab runs the code the host serves when it loads.
    const context = await freshContext(browser, { serviceWorkers: 'block' });
    const older = await newNotesPage(context, host.url);
    await host.setRoot(version2[build.name]);
    const newer = await newNotesPage(context, host.url);
    // Both type within the save delay (1 s); the newer tab saves first, as it goes away.
    await firstNote(newer).fill('typed in the newer version');
    await older.getByRole('button', { name: 'Add note' }).click();
    await older.getByRole('textbox', { name: 'Note 2', exact: true }).fill('typed in the older version, not saved yet');
    await newer.goto('about:blank');
    await older.getByText('What you typed here since the last save is kept on this device').waitFor(WAIT);
    assert.match((await storedText(older)) ?? '', /"v":2/, 'the key holds the newer format, never written over');
    await older.getByRole('button', { name: 'Reload' }).click();
    await until(
      'the newer version with both edits',
      async () =>
        (await shownNotes(older).catch(() => [])).join('|') === 'typed in the newer version|typed in the older version, not saved yet',
    );
    assert.is(await storedText(older, `${NOTES_KEY}:unsaved-v1`), null, 'merged once, then removed');
    await context.close();
  });

  test.run();
}
