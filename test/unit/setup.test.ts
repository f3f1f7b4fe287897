// What `npm test` installs on a machine that lacks the browsers and hosts (test/harness/setup.mjs): the
// packages for exactly the missing programs, WebKit's and nginx's without their recommends, each
// package once; where it cannot install, one line per program with the command to run; and the npm
// packages it installs into its cache on first use (wrangler, the Observatory's scanner).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ensureObservatory,
  ensureWrangler,
  installPlan,
  instructions,
  missingRequirements,
  needsPagesRuntime,
  OBSERVATORY_VERSION,
  requirements,
  WRANGLER_VERSION,
  wranglerInstall,
} from '../harness/setup.mjs';

const test = suite('test machine setup');

/** The requirements as if only the programs named here were installed. */
const missingExcept = (...installed: string[]) =>
  missingRequirements(requirements(), (file) => installed.some((name) => file.endsWith(name)));

test('a machine with everything installs nothing', () => {
  const everything = requirements().map((requirement) => requirement.path);
  assert.equal(
    missingRequirements(requirements(), (file) => everything.includes(file)),
    [],
  );
});

test('a new machine gets every package once: browsers and python3 with their recommends, the headless shell, WebKit, Xvfb, nginx and rsync without', () => {
  const plan = installPlan(missingExcept());
  assert.equal(plan.withRecommends, ['chromium', 'firefox-esr', 'python3']);
  assert.equal(plan.withoutRecommends, ['chromium-headless-shell', 'webkit2gtk-driver', 'xvfb', 'xauth', 'iproute2', 'nginx', 'rsync']);
});

test('only what is missing: a machine with the browsers but no nginx gets nginx alone', () => {
  const installed = requirements()
    .filter((requirement) => requirement.debianPackage !== 'nginx')
    .map((requirement) => requirement.path);
  const plan = installPlan(missingRequirements(requirements(), (file) => installed.includes(file)));
  assert.equal(plan, { withRecommends: [], withoutRecommends: ['nginx'] });
});

test('where it cannot install, one line per missing program says who needs it and what to run', () => {
  const lines = instructions(missingRequirements(requirements(), (file) => !file.endsWith('/usr/sbin/nginx')));
  assert.is(lines.length, 1);
  assert.match(
    lines[0],
    /^nginx not found at \/usr\/sbin\/nginx \(the tests of deploy\/nginx\.conf\): install it with `sudo apt-get install -y --no-install-recommends nginx`$/,
  );
});

/** Runs ensureWrangler() with WRANGLER_PATH set to `given` (or unset); returns what it returned and said. */
function withWranglerPath(given: string | undefined, cache: string): { launcher: string; said: string[] } {
  const before = process.env.WRANGLER_PATH;
  if (given === undefined) delete process.env.WRANGLER_PATH;
  else process.env.WRANGLER_PATH = given;
  try {
    const said: string[] = [];
    return { launcher: ensureWrangler(cache, (line) => said.push(line)), said };
  } finally {
    if (before === undefined) delete process.env.WRANGLER_PATH;
    else process.env.WRANGLER_PATH = before;
  }
}

test('wrangler: the pinned version already in the cache is used as it is, and nothing is said', () => {
  const cache = mkdtempSync(path.join(os.tmpdir(), 'setup-test-'));
  try {
    const { dir, launcher } = wranglerInstall(cache);
    mkdirSync(path.join(dir, 'node_modules', 'wrangler'), { recursive: true });
    writeFileSync(path.join(dir, 'node_modules', 'wrangler', 'package.json'), JSON.stringify({ version: WRANGLER_VERSION }));
    assert.equal(withWranglerPath(undefined, cache), { launcher, said: [] });
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

test('wrangler: WRANGLER_PATH is used as it is; where nothing is there, one line says the Pages tests will fail', () => {
  const missing = path.join(os.tmpdir(), 'no-such-wrangler', 'wrangler.js');
  const { launcher, said } = withWranglerPath(missing, '/nonexistent-cache');
  assert.is(launcher, missing);
  assert.equal(said, [`wrangler not found at ${missing} (WRANGLER_PATH): the tests on Cloudflare Pages will fail`]);
});

test("the Observatory's scanner: the pinned version already in the cache is used as it is, with an empty HSTS preload list", () => {
  const cache = mkdtempSync(path.join(os.tmpdir(), 'setup-test-'));
  const before = process.env.OBSERVATORY_PATH;
  delete process.env.OBSERVATORY_PATH;
  try {
    const packageDir = path.join(cache, 'observatory', 'node_modules', '@mdn', 'mdn-http-observatory');
    mkdirSync(path.join(packageDir, 'conf'), { recursive: true });
    writeFileSync(path.join(packageDir, 'package.json'), JSON.stringify({ version: OBSERVATORY_VERSION }));
    const said: string[] = [];
    assert.is(
      ensureObservatory(cache, (line) => said.push(line)),
      packageDir,
    );
    assert.equal(said, []);
    assert.is(
      readFileSync(path.join(packageDir, 'conf', 'hsts-preload.json'), 'utf8'),
      '{}\n',
      'its install script would download the list',
    );
  } finally {
    if (before !== undefined) process.env.OBSERVATORY_PATH = before;
    rmSync(cache, { recursive: true, force: true });
  }
});

test("the quick run's tests (engines.test.ts) need no Pages runtime, so `npm test -- --quick` installs no wrangler; a file on every host does", () => {
  const e2e = (name: string) => path.join(process.cwd(), 'test/e2e', name);
  assert.not.ok(needsPagesRuntime([e2e('engines.test.ts')]), 'engines.test.ts runs on python');
  assert.ok(needsPagesRuntime([e2e('engines.test.ts'), e2e('hosts-headers.test.ts')]), 'hosts-headers.test.ts runs on every host');
  assert.ok(needsPagesRuntime([e2e('render.test.ts')]), 'render.test.ts runs on hostsFor(build), Pages among them');
  assert.not.ok(needsPagesRuntime([e2e('app-identity.test.ts')]), 'app-identity.test.ts runs on preview and nginx');
});

test.run();
