// A fresh clone's `npm install` leaves package-lock.json as committed (issue 51): npm rewrites the
// lock's root entry (packages[""]) from package.json whenever the two disagree (its engines, its
// dependencies' ranges), so a builder's first install would show a change they did not make.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const root = process.cwd();
const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));

/**
 * The fields of package.json that npm copies into the lock's root entry (npm's arborist, "root
 * package") and that decide what is installed. The name and version are copied too, but a builder
 * renaming the app (README, "Name it") changes them until their next `npm install`, and no install
 * depends on them: they are left out, so a rename keeps `npm test` green.
 */
const COPIED = ['license', 'dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'engines', 'bin', 'workspaces'];

const test = suite('package-lock.json agrees with package.json');

// The project's, and the bench's own (test/bench/, installed by the bench on first use).
for (const folder of ['.', 'test/bench']) {
  const pkg = read(path.join(folder, 'package.json'));
  const lock = read(path.join(folder, 'package-lock.json'));

  test(`${folder}: the lock's root entry holds what package.json says, field by field`, () => {
    const entry = lock.packages?.[''];
    assert.ok(entry, 'package-lock.json has a root entry (lockfileVersion 2 or 3)');
    for (const field of COPIED) assert.equal(entry[field], pkg[field], `packages[""].${field}`);
  });

  test(`${folder}: every dependency package.json lists is locked`, () => {
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }))
      assert.ok(lock.packages[`node_modules/${name}`]?.version, `${name} is in the lock`);
  });
}

test.run();
