// `npm run verify -- <URL>` (tools/verify.mjs) against real hosts, the preview server, nginx with
// the shipped config and Cloudflare Pages' runtime with the build's `_headers`: a clean deploy
// passes; an altered byte (in the file, or only in its .gz or .br copy, where the host sends that
// copy), a missing file, a wrong header, a file of the wrong type (a script or the worker a browser
// would not run), a second or a different Content-Security-Policy, a page whose own <meta> policy
// is not the header's each give one clear line and exit 1 (the misconfigured hosts:
// verify-misconfigured.test.ts; hosts that send no headers: verify-bytes-only.test.ts).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { beforeAllTests } from './lib/hooks';
import { startHost, type Host } from './lib/hosts';
import { alterRepresentation, appScript, audit, brokenCopy, BUILDS, removeWithCopies, site } from './lib/site';
import { verify, VERIFY_HOSTS, SENDS_COPIES, dist, fileCount, servedCount } from './lib/verify-run';

for (const kind of VERIFY_HOSTS) {
  const test = suite<{ host: Host }>(`npm run verify (${kind})`);
  beforeAllTests(test, async (context) => {
    context.host = await startHost(kind, dist);
  });
  test.after.each(({ host }) => host.setRoot(dist));
  test.after(async ({ host }) => host?.close());

  for (const build of BUILDS) {
    test(`a clean deploy (${build.name}) passes: exit 0 and one summary line`, async ({ host }) => {
      await host.setRoot(site(build.name, 'v1'));
      const result = await verify(host.url, site(build.name, 'v1'));
      assert.equal(result.stderr, []);
      assert.equal(result.stdout.length, 1, result.stdout.join('\n'));
      assert.match(
        result.stdout[0],
        new RegExp(
          `^verify: OK, ${audit(site(build.name, 'v1')).files.length + 1} files of version \\w+ \\(${build.name} build\\) at ${host.url}`,
        ),
      );
      // Pages answers /404.html with a 308 to /404: verify checks what that leads to, and says so.
      if (kind === 'pages') assert.match(result.stdout[0], /; the host redirects 404\.html to \/404 \(checked there\)$/);
      assert.is(result.code, 0);
    });
  }

  test('one altered byte: one ALTERED line naming the file, exit 1', async ({ host }) => {
    await host.setRoot(
      brokenCopy(dist, (copy) => {
        const file = path.join(copy, 'licenses.txt');
        const text = readFileSync(file, 'utf8');
        assert.ok(text.includes('MIT'));
        writeFileSync(file, text.replace('MIT', 'MIX'));
        // Its precompressed copies go too, or a host would send the intact bytes from them.
        rmSync(file + '.gz');
        rmSync(file + '.br');
      }),
    );
    const result = await verify(host.url, dist);
    assert.is(result.stdout.length, 2, result.stdout.join('\n'));
    assert.match(result.stdout[0], /^ALTERED licenses\.txt \(identity\): \d+ bytes with sha384-\S+, dist\/ has \d+ bytes with sha384-\S+$/);
    assert.match(result.stdout[1], new RegExp(`^verify: FAILED, 1 problem \\(1 altered\\) in ${fileCount} files`));
    assert.is(result.code, 1);
  });

  for (const encoding of ['identity', 'gzip', 'br'] as const) {
    const sent = encoding === 'identity' || SENDS_COPIES[kind].includes(encoding);
    test(`the app script altered only as ${encoding}: ${sent ? `one ALTERED line naming ${encoding}, exit 1` : 'never sent by this host, exit 0'}`, async ({
      host,
    }) => {
      const script = appScript(dist);
      await host.setRoot(brokenCopy(dist, (copy) => alterRepresentation(copy, script, encoding)));
      const result = await verify(host.url, dist);
      if (!sent) {
        // The host never sends that copy (nginx has no brotli; Pages compresses the file itself),
        // so no visitor can get the altered bytes: every copy it does send is the build's.
        assert.match(result.stdout.join('\n'), /^verify: OK, /);
        assert.is(result.stdout.length, 1, result.stdout.join('\n'));
        assert.is(result.code, 0);
        return;
      }
      assert.is(result.stdout.length, 2, result.stdout.join('\n'));
      assert.match(
        result.stdout[0],
        new RegExp(
          `^ALTERED ${script.replace(/[.]/g, '\\.')} \\(${encoding}\\): \\d+ bytes with sha384-\\S+, dist/ has \\d+ bytes with sha384-\\S+$`,
        ),
      );
      assert.match(result.stdout[1], /^verify: FAILED, 1 problem \(1 altered\)/);
      assert.is(result.code, 1);
    });
  }

  test('a clean deploy checks every copy the host sends: identity always, gzip where there is a .gz, br only where the host sends it', async ({
    host,
  }) => {
    const result = await verify(host.url, dist);
    const copies = audit(dist).files.filter((file) => existsSync(path.join(dist, file.path + '.gz'))).length;
    const counts = /in every encoding sent \((\d+) identity, (\d+) gzip, (\d+) br\)/.exec(result.stdout[0]);
    assert.ok(counts, result.stdout.join('\n'));
    const [identity, gzip, brotli] = counts.slice(1).map(Number);
    assert.is(identity, servedCount(kind));
    // audit.json has copies too; nginx also compresses a few small text files on the fly (gzip on).
    assert.ok(gzip >= copies + 1, `${gzip} gzip`);
    if (kind === 'pages') {
      // Pages compresses every file it serves but the PNG icons, in both encodings.
      const images = audit(dist).files.filter((file) => file.path.endsWith('.png')).length;
      assert.equal([gzip, brotli], [identity - images, identity - images]);
    } else assert.is(brotli, SENDS_COPIES[kind].includes('br') ? copies + 1 : 0);
    assert.is(result.code, 0);
  });

  test('a missing file: one MISSING line naming the file and the status, exit 1', async ({ host }) => {
    const script = appScript(dist);
    await host.setRoot(brokenCopy(dist, (copy) => removeWithCopies(copy, script)));
    const result = await verify(host.url, dist);
    assert.equal(result.stdout[0], `MISSING ${script}: HTTP 404 (${new URL(script, host.url).href})`);
    assert.match(result.stdout[1], /^verify: FAILED, 1 problem \(1 missing\)/);
    assert.is(result.stdout.length, 2, result.stdout.join('\n'));
    assert.is(result.code, 1);
  });

  test('a URL that is not http(s): one line, exit 2', async () => {
    const result = await verify('ftp://127.0.0.1/', dist);
    assert.equal(result.stderr, ['verify: only http:// and https:// sites can be checked, not ftp://']);
    assert.equal(result.stdout, []);
    assert.is(result.code, 2);
  });

  test.run();
}
