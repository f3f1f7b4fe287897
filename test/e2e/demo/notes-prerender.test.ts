// The Notes screen as the build prerenders it: its "Add note" button, and a neutral placeholder
// where the notes go, since no note is known at build time (they live on the device).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILDS, site } from '../lib/site';

for (const build of BUILDS) {
  const test = suite(`the Notes screen prerendered (${build.name})`);
  const html = () => readFileSync(path.join(site(build.name, 'v1'), 'index.html'), 'utf8');

  test('holds the "Add note" button and "Loading your notes…", and no note', () => {
    assert.match(html(), /<button id="add-note" type="button">Add note<\/button>/);
    assert.match(html(), 'Loading your notes…');
    assert.not.match(html(), /<textarea/, 'no note is known at build time');
  });

  test.run();
}
