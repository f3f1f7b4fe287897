// A builder's whole session in a copy of the project (issue 42): rename the app, add the README's
// files as written (its screen and its settings store, wired in as it says) and a second screen
// that reads the store (with the demo or without it: after remove-demo with the README's screen as
// the home screen, the README's screen is added under a name, title and place of its own), lint and type-check them, run the dev loop while editors leave their files
// beside the screens, build, and verify the served build. Then, in Chromium, the dev server taking
// a production build's worker out of the way on the same origin, and leaving dist/ as built.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cacheNames } from './lib/caches';
import { editPackageJson, fingerprint, gitCopy, runBuild, startServing } from './lib/builder';
import { freshContext } from './lib/browser';
import { openInstalled } from './lib/app';
import { freePort } from './lib/processes';
import { cleanup, copySources } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { until } from './lib/wait';
import { present } from '../present';
import { listScreens } from '../../tools/screens.mjs';

/** The code blocks the README presents as files to add: those whose first line is `// <path>`. */
function readmeFiles(): { file: string; text: string }[] {
  const readme = readFileSync(path.join(process.cwd(), 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^( *)```tsx?\n([\s\S]*?)^\1```$/gm)];
  return blocks.flatMap(([, indent, body]) => {
    const lines = body.split('\n').map((line) => line.slice(indent.length));
    const file = /^\/\/ (src\/\S+\.tsx?)$/.exec(lines[0])?.[1];
    return file ? [{ file, text: lines.join('\n') }] : [];
  });
}

/** A file the README presents, as the copy has it: its path and its text. */
type AddedFile = { file: string; text: string };

/**
 * The README's screen, where the README puts it; or, when a screen of the copy has its file name,
 * title or navOrder already (the README's screen is the home screen after remove-demo), the same
 * screen under a name and title of its own, after the copy's last place in the navigation.
 */
function placeReadmeScreen(dir: string, { file, text }: AddedFile): AddedFile & { name: string; title: string } {
  const name = path.basename(file, '.tsx');
  const title = present(/^export const title = '([^']*)';$/m.exec(text), `the title of the README's ${file}`)[1];
  const navOrder = Number(present(/^export const navOrder = (\d+);$/m.exec(text), `the navOrder of the README's ${file}`)[1]);
  const screens = listScreens(dir);
  if (!screens.some((screen) => screen.name === name || screen.title === title || screen.navOrder === navOrder))
    return { file, text, name, title };
  const free = { name: `readme-${name}`, title: `${title} from the README` };
  const freeFile = `src/ui/screens/${free.name}.tsx`;
  const freeText = text
    .replace(`// ${file}`, `// ${freeFile}`)
    .replace(`export const title = '${title}';`, `export const title = '${free.title}';`)
    .replace(/^export const navOrder = \d+;$/m, `export const navOrder = ${Math.max(...screens.map((screen) => screen.navOrder)) + 1};`);
  return { file: freeFile, text: freeText, ...free };
}

/** The second screen, written by the builder, at `navOrder`: it reads the README's store and changes it. */
const settingsScreen = (navOrder: number) => `import { chooseTheme, settings } from '../../settings/store';
import { useStore } from '../useStore';

export const title = 'Settings';
export const navOrder = ${navOrder};

export default function SettingsScreen() {
  const { doc } = useStore(settings);
  return (
    <p>
      Theme: {doc.theme}{' '}
      <button type="button" onClick={() => chooseTheme('dark')}>
        Dark
      </button>
    </p>
  );
}
`;

/** What the README says to do in src/main.tsx: import the store, start it with the other `start` calls at its top level. */
function wireSettings(dir: string): void {
  const main = path.join(dir, 'src/main.tsx');
  const code = readFileSync(main, 'utf8');
  const lastImport = [...code.matchAll(/^import .+;$/gm)].at(-1);
  const lastStart = [...code.matchAll(/^start\w*\(\);$/gm)].at(-1);
  assert.ok(lastImport && lastStart, 'src/main.tsx has imports and `start` calls at its top level, where the README says');
  const at = (match: RegExpExecArray | RegExpMatchArray) => (match.index ?? 0) + match[0].length;
  writeFileSync(
    main,
    code.slice(0, at(lastImport)) +
      "\nimport { settings } from './settings/store';" +
      code.slice(at(lastImport), at(lastStart)) +
      '\nsettings.start();' +
      code.slice(at(lastStart)),
  );
}

/** Runs a tool of the copy (node <args>) and fails the test with its output unless it exits 0. */
function runTool(dir: string, args: string[]): void {
  const result = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8' });
  assert.is(result.status, 0, `node ${args.join(' ')}:\n${result.stdout}${result.stderr}`);
}

const session = suite("a builder's whole session, in a copy (issue 42)");
session.after(cleanup);

session(
  "rename, the README's screen and store plus a screen that reads it, lint, type check, dev while editors save, build, verify",
  async () => {
    const dir = gitCopy();
    editPackageJson(dir, (pkg) => ({ ...pkg, name: 'field-notes', displayName: 'Field Notes', description: 'Notes from the field.' }));
    const added = readmeFiles();
    assert.equal(
      added.map(({ file }) => file),
      ['src/ui/screens/help.tsx', 'src/settings/store.ts'],
      "the README's files to add",
    );
    const helpScreen = placeReadmeScreen(dir, added[0]);
    for (const { file, text } of [helpScreen, added[1]]) {
      mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    const nextPlace = Math.max(...listScreens(dir).map((screen) => screen.navOrder)) + 1;
    writeFileSync(path.join(dir, 'src/ui/screens/settings.tsx'), settingsScreen(nextPlace));
    wireSettings(dir);
    const files = [helpScreen.file, added[1].file, 'src/ui/screens/settings.tsx', 'src/main.tsx'];
    runTool(dir, ['node_modules/@biomejs/biome/bin/biome', 'check', ...files]);
    runTool(dir, ['tools/typecheck.mjs', 'app', 'sw']);

    const dev = await startServing(dir, ['--watch']);
    try {
      // A builder's first save comes after the tools are up: Node's recursive file watcher is set
      // up folder by folder, with no event of its own for "ready" (the bench waits the same way).
      await until("the type checker's first report", () => /^type check \(sw\): /m.test(dev.output()), 60_000);
      const rebuilds = () => dev.output().match(/^rebuilt in \d+ ms$/gm)?.length ?? 0;
      /** Saves like an editor, then waits for the rebuild that serves `expected` in the page's script. */
      const save = async (what: string, edit: () => void, expected: string) => {
        const before = rebuilds();
        edit();
        await until(
          `the rebuild after ${what}`,
          async () => rebuilds() > before && (await (await fetch(new URL('assets/app.js', dev.url))).text()).includes(expected),
          15_000,
        );
      };
      const screens = path.join(dir, 'src/ui/screens');
      const help = path.join(dir, helpScreen.file);
      // vim: a swap file beside the screen while it is open, then the write.
      await save(
        'vim',
        () => {
          writeFileSync(path.join(screens, `.${helpScreen.name}.tsx.swp`), 'b0VIM 9.0');
          writeFileSync(help, readFileSync(help, 'utf8').replace('works offline', 'works offline, from vim'));
        },
        'from vim',
      );
      // emacs: a backup of the previous version and an autosave file.
      await save(
        'emacs',
        () => {
          writeFileSync(path.join(screens, `${helpScreen.name}.tsx~`), readFileSync(help));
          writeFileSync(path.join(screens, `#${helpScreen.name}.tsx#`), 'autosave');
          writeFileSync(help, readFileSync(help, 'utf8').replace('from vim', 'from emacs'));
        },
        'from emacs',
      );
      // sed -i: writes a temporary file in the folder and renames it over the screen.
      await save('sed -i', () => spawnSync('sed', ['-i', 's/from emacs/from sed/', help]), 'from sed');
      // Finder.
      await save('a Finder visit', () => writeFileSync(path.join(screens, '.DS_Store'), 'Bud1'), 'from sed');
      assert.not.match(dev.output(), /build failed/);
      const page = await (await fetch(new URL(`${helpScreen.name}/`, dev.url))).text();
      assert.match(page, `<title>${helpScreen.title} · Field Notes</title>`);
      assert.match(page, '<meta name="description" content="Notes from the field.">');
    } catch (error) {
      (error as Error).message += `\n--watch output:\n${dev.output()}`;
      throw error;
    } finally {
      await dev.stop();
    }
    assert.not.ok(existsSync(path.join(dir, 'dist')), 'the dev loop wrote no dist/');

    const built = runBuild(dir, []);
    assert.is(built.code, 0, built.stderr);
    assert.match(
      readFileSync(path.join(dir, `dist/${helpScreen.name}/index.html`), 'utf8'),
      `<h1>${helpScreen.title}</h1><p>Everything here works offline, from sed.</p>`,
    );
    assert.match(readFileSync(path.join(dir, 'dist/settings/index.html'), 'utf8'), 'Theme: <!-- -->system');
    const served = await startServing(dir, ['--serve']);
    try {
      runTool(dir, ['tools/verify.mjs', served.url]);
    } finally {
      await served.stop();
    }
  },
);

session.run();

const takeover = suite<Shared>("dev takes a production build's worker out of the way (issue 42)");
shareChromium(takeover);
takeover.after(cleanup);

takeover(
  "on the port `npm start` used, the installed worker is replaced, the app's caches deleted and the page reloaded onto the dev build; dist/ stays as built",
  async ({ browser }) => {
    const dir = copySources();
    const port = String(await freePort());
    const production = await startServing(dir, ['--serve'], { PORT: port });
    const built = fingerprint(path.join(dir, 'dist'));
    const context = await freshContext(browser);
    try {
      const page = await openInstalled(context, production.url);
      assert.ok((await cacheNames(page)).length > 0, 'the production build is cached');
      await production.stop();

      const dev = await startServing(dir, ['--watch'], { PORT: port });
      try {
        // The production worker answers this load from its cache; its update check finds the dev sw.js.
        await page.reload();
        const devScript = () => page.evaluate(() => Boolean(document.querySelector('script[src="/assets/app.js"]'))).catch(() => false);
        await until('the page to reload onto the dev build', devScript, 20_000);
        assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), 0, 'no worker registered');
        assert.equal(await cacheNames(page), [], "the production build's caches deleted");
        assert.match(dev.output(), "dev: a production build's service worker was registered for / on this origin");
      } finally {
        await dev.stop();
      }
      assert.equal(fingerprint(path.join(dir, 'dist')), built, 'dist/ as the production build wrote it');
    } finally {
      await context.close();
    }
  },
);

takeover.run();
