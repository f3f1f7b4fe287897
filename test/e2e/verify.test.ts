// `npm run verify -- <URL>` (tools/verify.mjs) against real hosts, the preview server, nginx with
// the shipped config and Cloudflare Pages' runtime with the build's `_headers`: a clean deploy
// passes; an altered byte (in the file, or only in its .gz or .br copy, where the host sends that
// copy), a missing file, a wrong header, a file of the wrong type (a script or the worker a browser
// would not run), a second or a different Content-Security-Policy, a page whose own <meta> policy
// is not the header's, and a redirect elsewhere each give one clear line and exit 1; an
// unreachable URL and a URL that is not http(s) give one line and exit 2, never a stack trace.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CONTENT_TYPES, cspMetaElement, HEADER_ONLY_DIRECTIVES, headersFor, metaPolicyFor } from '../../tools/headers.mjs';
import { sri } from '../../tools/sri.mjs';
import { beforeAllTests } from './lib/hooks';
import { startHost, type Host, type HostKind } from './lib/hosts';
import { freePort } from './lib/processes';
import { alterRepresentation, appScript, audit, brokenCopy, BUILDS, copySite, removeWithCopies, site } from './lib/site';
import { present } from '../present';

/** Runs the verify tool as a user does (asynchronously: the preview server answers in this process). */
function verify(url: string, dist: string, ...options: string[]): Promise<{ code: number | null; stdout: string[]; stderr: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['tools/verify.mjs', url, '--dist', dist, ...options], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const lines = (text: string) => text.split('\n').filter(Boolean);
    child.on('close', (code) => resolve({ code, stdout: lines(stdout), stderr: lines(stderr) }));
  });
}

const VERIFY_HOSTS: HostKind[] = ['preview', 'nginx', 'pages'];
/**
 * The build's precompressed copies each host sends: the preview server both; Debian's nginx the
 * .gz (gzip_static; it has no brotli module); Pages neither: it compresses the file itself, gzip
 * or br as asked (measured on wrangler pages dev), so an altered copy never reaches anyone there.
 */
const SENDS_COPIES: Record<HostKind, ('gzip' | 'br')[]> = { preview: ['gzip', 'br'], nginx: ['gzip'], python: [], pages: [] };
const dist = site('react', 'v1');
const fileCount = audit(dist).files.length + 1; // and audit.json itself
/** Files a host serves: all, but `_headers` on Pages, which reads it and never serves it. */
const servedCount = (kind: HostKind) => fileCount - (kind === 'pages' ? 1 : 0);

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

/**
 * Verifies `host` against `against` (dist by default), expecting exactly the one problem `line`
 * (a HEADER line unless `kind` says otherwise) and exit 1; closes the host.
 */
async function assertOneProblem(host: Host, line: string, kind = 'wrong header', against = dist): Promise<void> {
  try {
    const result = await verify(host.url, against);
    assert.equal(result.stdout.slice(0, -1), [line]);
    assert.match(present(result.stdout.at(-1), 'a last line of verify'), new RegExp(`^verify: FAILED, 1 problem \\(1 ${kind}\\)`));
    assert.is(result.code, 1);
  } finally {
    await host.close();
  }
}

/** Verifies `host` against `dist`, expecting exactly the one HEADER problem `line` and exit 1; closes the host. */
const assertOneWrongHeader = (host: Host, line: string): Promise<void> => assertOneProblem(host, line);

/**
 * A preview server answering `urlPath` with the file `file` of dist/ and the promised headers,
 * `change`d (a host with a wrong type or policy for that one file); every other path as usual.
 */
function previewAnswering(urlPath: string, file: string, change: (headers: Record<string, string | string[]>) => void): Promise<Host> {
  return startHost('preview', dist, {
    intercept: (req, res) => {
      if (req.url !== urlPath) return false;
      const headers: Record<string, string | string[]> = { 'Content-Type': CONTENT_TYPES[path.extname(file)], ...headersFor(urlPath) };
      change(headers);
      // An array value is sent as that many header fields (Node's http).
      res.writeHead(200, headers).end(readFileSync(path.join(dist, file)));
      return true;
    },
  });
}

/** Debian's nginx serving dist/ with the shipped server block, its manifest location (and what follows it) `edit`ed. */
function nginxWithManifestLocation(edit: (location: string) => string): Promise<Host> {
  return startHost('nginx', dist, {
    editServerBlock: (block) => {
      const manifest = block.indexOf('location ~ \\.webmanifest$');
      const edited = block.slice(0, manifest) + edit(block.slice(manifest));
      assert.is.not(edited, block, 'the edit applies');
      return edited;
    },
  });
}

/** The table's policy, as every response carries it. */
const POLICY = headersFor('/')['Content-Security-Policy'];

// A wrong header, as each host gets one: the preview server answering sw.js with a cache lifetime
// (intercepted), nginx with a line dropped from its manifest location; a wrong type or policy for
// one file (the preview server intercepting it, nginx with an edited location); and no host at all.
const wrong = suite('npm run verify: misconfigured and unreachable hosts');

wrong('preview server: sw.js with max-age=600 gives one HEADER line, exit 1', async () => {
  const host = await startHost('preview', dist, {
    intercept: (req, res) => {
      if (req.url !== '/sw.js') return false;
      res
        .writeHead(200, { ...headersFor('/sw.js'), 'Cache-Control': 'public, max-age=600', 'Content-Type': 'text/javascript' })
        .end(readFileSync(path.join(dist, 'sw.js')));
      return true;
    },
  });
  await assertOneWrongHeader(host, 'HEADER sw.js: Cache-Control is "public, max-age=600", expected "no-cache"');
});

wrong('nginx: a manifest location that drops nosniff gives one HEADER line, exit 1', async () => {
  const host = await nginxWithManifestLocation((location) => location.replace(/\n\s*add_header X-Content-Type-Options [^\n]*/, ''));
  await assertOneWrongHeader(host, 'HEADER manifest.webmanifest: X-Content-Type-Options is missing, expected "nosniff"');
});

wrong('pages: a _headers rule that caches the manifest for 10 minutes gives one HEADER line, exit 1', async () => {
  const host = await startHost(
    'pages',
    brokenCopy(dist, (copy) => {
      const file = path.join(copy, '_headers');
      const text = readFileSync(file, 'utf8');
      const edited = text.replace(/(\/manifest\.webmanifest\n\s+Cache-Control: )no-cache/, '$1public, max-age=600');
      assert.is.not(edited, text, 'the edit applies');
      writeFileSync(file, edited);
    }),
  );
  await assertOneWrongHeader(host, 'HEADER manifest.webmanifest: Cache-Control is "public, max-age=600", expected "no-cache"');
});

wrong(
  'preview server: the app script as application/octet-stream, with nosniff, gives one TYPE line (no browser runs it), exit 1',
  async () => {
    const script = appScript(dist);
    const host = await previewAnswering('/' + script, script, (headers) => {
      headers['Content-Type'] = 'application/octet-stream';
      assert.is(headers['X-Content-Type-Options'], 'nosniff');
    });
    await assertOneProblem(
      host,
      `TYPE ${script}: Content-Type is "application/octet-stream", expected text/javascript: browsers refuse to run a module script of any other type`,
      'wrong type',
    );
  },
);

wrong('preview server: sw.js as application/octet-stream gives one TYPE line (the worker never registers or updates), exit 1', async () => {
  const host = await previewAnswering('/sw.js', 'sw.js', (headers) => {
    headers['Content-Type'] = 'application/octet-stream';
  });
  await assertOneProblem(
    host,
    'TYPE sw.js: Content-Type is "application/octet-stream", expected text/javascript: the service worker never registers or updates',
    'wrong type',
  );
});

wrong('preview server: a second, weaker policy header on the page gives one HEADER line (a browser enforces both), exit 1', async () => {
  const host = await previewAnswering('/', 'index.html', (headers) => {
    headers['Content-Security-Policy'] = [POLICY, 'default-src *'];
  });
  await assertOneWrongHeader(
    host,
    `HEADER index.html: Content-Security-Policy is 2 policies, ${JSON.stringify(POLICY)} and "default-src *", each enforced, expected one: ${JSON.stringify(POLICY)}`,
  );
});

wrong('preview server: two policies in one header, joined with a comma, give the same HEADER line, exit 1', async () => {
  const host = await previewAnswering('/status/', 'status/index.html', (headers) => {
    headers['Content-Security-Policy'] = `${POLICY}, default-src *`;
  });
  await assertOneWrongHeader(
    host,
    `HEADER status/index.html: Content-Security-Policy is 2 policies, ${JSON.stringify(POLICY)} and "default-src *", each enforced, expected one: ${JSON.stringify(POLICY)}`,
  );
});

wrong('nginx: a manifest location whose policy allows inline scripts gives one HEADER line naming both policies, exit 1', async () => {
  const laxer = POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'");
  const host = await nginxWithManifestLocation((location) => location.replace(POLICY, laxer));
  await assertOneWrongHeader(
    host,
    `HEADER manifest.webmanifest: Content-Security-Policy is ${JSON.stringify(laxer)}, expected ${JSON.stringify(POLICY)}`,
  );
});

wrong(
  'preview server: a page whose policy lacks require-trusted-types-for gives one HEADER line saying so (Trusted Types off), exit 1',
  async () => {
    const withoutTrustedTypes = POLICY.replace("; require-trusted-types-for 'script'", '');
    assert.is.not(withoutTrustedTypes, POLICY, 'the edit applies');
    const host = await previewAnswering('/about/', 'about/index.html', (headers) => {
      headers['Content-Security-Policy'] = withoutTrustedTypes;
    });
    await assertOneWrongHeader(
      host,
      `HEADER about/index.html: Content-Security-Policy has no require-trusted-types-for 'script': a string reaches innerHTML, eval or a script's URL unchecked, so a DOM XSS runs; expected ${JSON.stringify(POLICY)}`,
    );
  },
);

wrong('nginx: a policy without trusted-types (any script may make a policy) gives one HEADER line saying so, exit 1', async () => {
  const withoutPolicyNames = POLICY.replace(/; trusted-types [^;]+/, '');
  assert.is.not(withoutPolicyNames, POLICY, 'the edit applies');
  const host = await nginxWithManifestLocation((location) => location.replace(POLICY, withoutPolicyNames));
  await assertOneWrongHeader(
    host,
    `HEADER manifest.webmanifest: Content-Security-Policy has no trusted-types directive: any script may create a policy that lets every string through; expected ${JSON.stringify(POLICY)}`,
  );
});

wrong(
  "preview server: a page whose own <meta> policy is not the header's (built from another table) gives one HEADER line, exit 1",
  async () => {
    // The deploy is a build of its own (its audit.json lists the page as served), so only the two
    // policies disagree: the header is the table's, the page's meta allows form posts to itself.
    const other = copySite(dist);
    const page = path.join(other, 'index.html');
    // The build's own: the header's without the header-only directives, its scripts (the one it
    // runs and those it preloads, in its order) by hash.
    const html = readFileSync(page, 'utf8');
    const scriptTags = /<(?:script\b|link\b(?=[^>]*\srel="modulepreload"))[^>]*\sintegrity="([^"]+)"/g;
    const scriptHashes = [...html.matchAll(scriptTags)].map((match) => match[1]);
    assert.ok(scriptHashes.includes(sri(readFileSync(path.join(dist, appScript(dist))))), "the page's script is among them");
    const pagePolicy = metaPolicyFor(scriptHashes);
    const element = cspMetaElement(scriptHashes);
    const otherMeta = pagePolicy.replace("form-action 'none'", "form-action 'self'");
    const edited = Buffer.from(html.replace(element, element.replace(pagePolicy, otherMeta)));
    assert.ok(html.includes(element) && !edited.equals(Buffer.from(html)), 'the edit applies');
    writeFileSync(page, edited);
    const listed = audit(other);
    const entry = present(
      listed.files.find((file) => file.path === 'index.html'),
      'index.html in audit.json',
    );
    Object.assign(entry, { bytes: edited.length, sha384: sri(edited) });
    writeFileSync(path.join(other, 'audit.json'), JSON.stringify(listed, null, 2) + '\n');
    // The precompressed copies of both are the first build's: a host would send them.
    for (const copy of ['index.html.gz', 'index.html.br', 'audit.json.gz', 'audit.json.br']) rmSync(path.join(other, copy));
    await assertOneProblem(
      await startHost('preview', other),
      `HEADER index.html: the page's own <meta> Content-Security-Policy is ${JSON.stringify(otherMeta)}, expected the header's without ${HEADER_ONLY_DIRECTIVES.join(', ')}, with its scripts by their hash and 'strict-dynamic' in script-src: ${JSON.stringify(pagePolicy)}`,
      'wrong header',
      other,
    );
  },
);

wrong('a redirect to another origin is not followed: one MISSING line naming where it leads, exit 1', async () => {
  const elsewhere = 'http://example.invalid/licenses.txt';
  const host = await startHost('preview', dist, {
    intercept: (req, res) => {
      if (req.url !== '/licenses.txt') return false;
      res.writeHead(302, { ...headersFor('/licenses.txt'), Location: elsewhere }).end();
      return true;
    },
  });
  try {
    const result = await verify(host.url, dist);
    assert.equal(result.stdout.slice(0, -1), [`MISSING licenses.txt: HTTP 302 to ${elsewhere} (${host.url}licenses.txt)`]);
    assert.match(present(result.stdout.at(-1), 'a last line of verify'), /^verify: FAILED, 1 problem \(1 missing\)/);
    assert.is(result.code, 1);
  } finally {
    await host.close();
  }
});

wrong('an unreachable URL: one line naming the reason, exit 2, no stack trace', async () => {
  const url = `http://127.0.0.1:${await freePort()}/`;
  const result = await verify(url, dist);
  assert.equal(result.stderr, [`verify: cannot reach ${url}: ECONNREFUSED`]);
  assert.equal(result.stdout, []);
  assert.is(result.code, 2);
});

wrong('a sub-path deploy (--base /my-app/) on nginx passes when given its base URL', async () => {
  const base = site('react', 'base');
  const root = path.join(copySite(dist), '..', 'www');
  mkdirSync(root);
  symlinkSync(base, path.join(root, 'my-app'));
  const host = await startHost('nginx', root);
  try {
    const result = await verify(new URL('my-app/', host.url).href, base);
    assert.equal(result.stderr, []);
    assert.match(
      result.stdout.join('\n'),
      new RegExp(`^verify: OK, ${audit(base).files.length + 1} files of version \\w+ \\(react build\\) at ${host.url}my-app/`),
    );
    assert.is(result.code, 0);
  } finally {
    await host.close();
  }
});

wrong(
  "deploy/nginx-subpath.conf serving a folder that holds my-app/: verify passes there, and an unknown path is the app's 404.html",
  async () => {
    const base = site('react', 'base');
    const root = path.join(copySite(dist), '..', 'www-subpath');
    mkdirSync(root);
    symlinkSync(base, path.join(root, 'my-app'));
    const host = await startHost('nginx', root, { serverBlockFile: 'deploy/nginx-subpath.conf' });
    try {
      const result = await verify(new URL('my-app/', host.url).href, base);
      assert.equal(result.stderr, []);
      assert.match(result.stdout.join('\n'), new RegExp(`^verify: OK, ${audit(base).files.length + 1} files`));
      assert.is(result.code, 0);
      const missing = await fetch(new URL('my-app/no-such-screen/', host.url));
      assert.is(missing.status, 404);
      assert.is(await missing.text(), readFileSync(path.join(base, '404.html'), 'utf8'), "the app's own not-found page");
      assert.is(missing.headers.get('x-frame-options'), 'DENY');
    } finally {
      await host.close();
    }
  },
);

wrong.run();

const bytesOnly = suite('npm run verify --bytes-only: hosts that send no headers (python), issue 50');

bytesOnly('python: every byte matches, so exit 0; each missing header is one WARNING line with its count', async () => {
  const host = await startHost('python', dist);
  try {
    const strict = await verify(host.url, dist);
    assert.is(strict.code, 1, 'without --bytes-only, the missing headers fail');
    const result = await verify(host.url, dist, '--bytes-only');
    assert.equal(result.stderr, []);
    const summary = present(result.stdout.pop(), 'the summary');
    assert.match(
      summary,
      new RegExp(
        `^verify: OK \\(bytes only\\), ${fileCount} files of version \\w+ \\(react build\\) at ${host.url}: every SHA-384 matches`,
      ),
    );
    assert.ok(result.stdout.length > 0 && result.stdout.every((line) => line.startsWith('WARNING ')), result.stdout.join('\n'));
    assert.ok(
      result.stdout.some(
        (line) => line.startsWith(`WARNING HEADER (${fileCount} files, `) && line.includes('Content-Security-Policy is missing'),
      ),
      'the policy, missing on every file, is one line',
    );
    assert.is(result.code, 0);
  } finally {
    await host.close();
  }
});

bytesOnly('python: one altered byte still fails: one ALTERED line, exit 1', async () => {
  const altered = brokenCopy(dist, (copy) => {
    const file = path.join(copy, 'robots.txt');
    writeFileSync(file, `${readFileSync(file, 'utf8')}# altered\n`);
  });
  const host = await startHost('python', altered);
  try {
    const result = await verify(host.url, dist, '--bytes-only');
    assert.equal(
      result.stdout.filter((line) => !line.startsWith('WARNING ')).map((line) => line.split(':')[0]),
      ['ALTERED robots.txt (identity)', 'verify'],
    );
    assert.match(present(result.stdout.at(-1), 'the summary'), /^verify: FAILED, 1 problem \(1 altered\)/);
    assert.is(result.code, 1);
  } finally {
    await host.close();
  }
});

bytesOnly(
  'python serving a folder that holds my-app/: a --base /my-app/ build passes there, and fails with one SCOPE line at the root',
  async () => {
    const base = site('react', 'base');
    const root = path.join(copySite(dist), '..', 'www-python');
    mkdirSync(root);
    symlinkSync(base, path.join(root, 'my-app'));
    const host = await startHost('python', root);
    try {
      const result = await verify(new URL('my-app/', host.url).href, base, '--bytes-only');
      assert.match(present(result.stdout.at(-1), 'the summary'), `verify: OK (bytes only), ${audit(base).files.length + 1} files`);
      assert.is(result.code, 0);
      await host.setRoot(base);
      const misplaced = await verify(host.url, base, '--bytes-only');
      assert.ok(
        misplaced.stdout.includes(
          'SCOPE sw.js: dist/ is built for --base /my-app/, served at /: its worker would control / and precache /my-app/; build with --base /',
        ),
        misplaced.stdout.join('\n'),
      );
      assert.is(misplaced.code, 1);
    } finally {
      await host.close();
    }
  },
);

bytesOnly.run();
