// The screens the test sites add (test/fixtures/screens/, test/harness/field-screen.mjs) never
// collide with the builder's (issue 51): with a screen of the app named, titled or placed as a
// fixture is, the fixture takes a name, title and navOrder no app screen has, and the app's screens
// and the fixtures together are still a valid set of screens (the build's own check).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { addFixtureScreens, FIXTURE_SCREENS, placedFixtures } from '../harness/field-screen.mjs';
import { listScreens, SCREENS_DIR } from '../../tools/screens.mjs';

const repo = process.cwd();

/** A screen's source. */
const screen = (title: string, navOrder: number) =>
  `export const title = ${JSON.stringify(title)};\nexport const navOrder = ${navOrder};\nexport default function S() {\n  return <p>{title}</p>;\n}\n`;

/** The fixtures as shipped: their names, titles and navOrders, read as the build reads a screen. */
function fixturesAsShipped() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fixtures-'));
  try {
    mkdirSync(path.join(dir, SCREENS_DIR), { recursive: true });
    cpSync(path.join(repo, FIXTURE_SCREENS), path.join(dir, SCREENS_DIR), { recursive: true });
    writeFileSync(path.join(dir, SCREENS_DIR, 'index.tsx'), screen('Probe home', 9999));
    return listScreens(dir).filter((s) => s.name !== 'index');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const test = suite<{ dirs: string[] }>('fixture screens never collide with the app', { dirs: [] });
test.after((context) => {
  for (const dir of context.dirs) rmSync(dir, { recursive: true, force: true });
});

/** A project with the repository's fixtures and the given screens. */
function project(context: { dirs: string[] }, screens: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fixture-app-'));
  context.dirs.push(dir);
  mkdirSync(path.join(dir, SCREENS_DIR), { recursive: true });
  mkdirSync(path.join(dir, FIXTURE_SCREENS), { recursive: true });
  cpSync(path.join(repo, FIXTURE_SCREENS), path.join(dir, FIXTURE_SCREENS), { recursive: true });
  for (const [file, text] of Object.entries(screens)) writeFileSync(path.join(dir, SCREENS_DIR, file), text);
  return dir;
}

/** The app's screens and the fixtures added as the test sites add them, as the build lists them. */
function together(dir: string) {
  const copy = mkdtempSync(path.join(os.tmpdir(), 'fixture-site-'));
  try {
    cpSync(path.join(dir, SCREENS_DIR), path.join(copy, SCREENS_DIR), { recursive: true });
    addFixtureScreens(dir, copy);
    return listScreens(copy);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

test('an app that shares nothing with them gets the fixtures as they are', (context) => {
  const dir = project(context, { 'index.tsx': screen('Home', 1) });
  const shipped = fixturesAsShipped();
  assert.equal(
    placedFixtures(dir).map(({ name, title, navOrder }) => ({ name, title, navOrder })),
    shipped.map(({ name, title, navOrder }) => ({ name, title, navOrder })),
  );
  assert.is(together(dir).length, 1 + shipped.length);
});

test("a builder's screen with a fixture's name, title and navOrder: the fixture takes others, and the build takes both", (context) => {
  const shipped = fixturesAsShipped();
  const own: Record<string, string> = { 'index.tsx': screen('Home', 0) };
  for (const fixture of shipped) own[`${fixture.name}.tsx`] = screen(fixture.title, fixture.navOrder);
  // And the title and name a first free choice would take, to prove the choice goes on.
  own[`${shipped[0].name}-2.tsx`] = screen(`${shipped[0].title} (2)`, 50);
  const dir = project(context, own);
  const placed = placedFixtures(dir);
  const appScreens = listScreens(dir);
  for (const fixture of placed) {
    assert.not.ok(
      appScreens.some((s) => s.name === fixture.name),
      `${fixture.name}: a name of its own`,
    );
    assert.not.ok(
      appScreens.some((s) => s.title === fixture.title),
      `${fixture.title}: a title of its own`,
    );
    assert.not.ok(
      appScreens.some((s) => s.navOrder === fixture.navOrder),
      `${fixture.navOrder}: a place of its own`,
    );
  }
  const all = together(dir);
  assert.is(all.length, appScreens.length + placed.length, 'every screen is one, and the build accepts them together');
  for (const fixture of placed) {
    const listed = all.find((s) => s.name === fixture.name);
    assert.is(listed?.title, fixture.title);
    assert.is(listed?.navOrder, fixture.navOrder);
    // The placed copy is the fixture's code, only its title and place changed.
    const code = readFileSync(path.join(dir, FIXTURE_SCREENS, fixture.source), 'utf8');
    assert.ok(code.includes('export default function'), 'the component is kept');
  }
});

test.run();
