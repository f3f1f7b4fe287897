// `npm run verify` against misconfigured and unreachable hosts: each fault one clear line and exit
// 1; an unreachable URL and a URL that is not http(s) one line and exit 2, never a stack trace.
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CONTENT_TYPES, cspMetaElement, HEADER_ONLY_DIRECTIVES, headersFor, metaPolicyFor } from '../../tools/headers.mjs';
import { sri } from '../../tools/sri.mjs';
import { startHost, type Host } from './lib/hosts';
import { freePort } from './lib/processes';
import { appScript, audit, brokenCopy, copySite, site } from './lib/site';
import { verify, dist } from './lib/verify-run';
import { present } from '../present';

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
