// docs/testing.md's timing table is what docs/timings.json renders to, and a bench run writes both:
// the numbers it measured over those it did not, and only the text between the table's markers.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PEER_STAMP, TIMINGS_DOC, TIMINGS_JSON, renderTimings, writeTimingsDoc } from '../../test/bench/timings-doc.mjs';
import { betweenMarkers } from '../../tools/doc-markers.mjs';

const test = suite('docs: timings');
const root = process.cwd();
const read = (folder: string, file: string) => readFileSync(path.join(folder, file), 'utf8');

/** A copy of docs/ to write into. */
function docsCopy(): string {
  const copy = mkdtempSync(path.join(os.tmpdir(), 'docs-timings-'));
  cpSync(path.join(root, 'docs'), path.join(copy, 'docs'), { recursive: true });
  return copy;
}

test("docs/testing.md's timing table is what docs/timings.json renders to", () => {
  const rendered = renderTimings(JSON.parse(read(root, TIMINGS_JSON)))
    .trim()
    .split('\n');
  const written = betweenMarkers(read(root, TIMINGS_DOC), 'timings', TIMINGS_DOC).trim().split('\n');
  const differing = rendered
    .map((row, index) => (row === written[index] ? '' : `row "${row.split('|')[1]?.trim()}": docs say "${written[index] ?? '(none)'}"`))
    .filter(Boolean);
  if (written.length !== rendered.length) differing.push(`the docs have ${written.length} lines, the JSON renders ${rendered.length}`);
  assert.equal(differing, [], `${differing.join('\n')}\n(npm run bench writes both)`);
});

test('a bench run writes what it measured into timings.json and the table, keeps the rest and the text around it', () => {
  const copy = docsCopy();
  try {
    const before = JSON.parse(read(copy, TIMINGS_JSON));
    const docBefore = read(copy, TIMINGS_DOC);
    // A run of the build part alone (--only build), React's median 1,234 ms; Lighthouse failed.
    const results = { react: { build: { runsMs: [1200, 1234, 1300], medianMs: 1234 }, lighthouse: { error: 'not installed' } } };
    assert.ok(writeTimingsDoc(copy, results as never, { chromium: '160.0.1.2' }));
    const after = JSON.parse(read(copy, TIMINGS_JSON));
    assert.is(after.builds.react.buildMs, 1234);
    assert.is(after.builds.react.lighthouse, null, 'a Lighthouse that did not run shows as not run');
    assert.equal(after.builds.preact, before.builds.preact, 'the build not measured keeps its numbers');
    assert.is(after.builds.react.devReloadMs, before.builds.react.devReloadMs, 'a part not measured keeps its number');
    assert.is(after.versions.chromium, '160');
    const doc = read(copy, TIMINGS_DOC);
    assert.match(
      doc,
      `| production build (\`node build.mjs\`) / dev save to page reloaded | 1,234 ms / ${before.builds.react.devReloadMs} ms |`,
    );
    assert.match(doc, /: performance \/ accessibility \/ best practices \/ SEO \| not run \| not run \|/);
    assert.is(betweenMarkers(doc, 'timings', TIMINGS_DOC), renderTimings(after));
    const outside = (text: string) => text.replace(betweenMarkers(text, 'timings', TIMINGS_DOC), '');
    assert.is(outside(doc), outside(docBefore), 'nothing outside the markers changed');
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});

/** A first visit's medians as load.mjs summarises them: loopback and slow, FCP, ready and load -> ready. */
const visit = (fcp: number, ready: number, loadToReady: number) => {
  const profile = { fcpMs: { median: fcp }, readyMs: { median: ready }, loadToReadyMs: { median: loadToReady } };
  return { loopback: profile, slow: profile, slowIdentity: profile };
};

test("a --compare run against vite-peer.mjs's site writes the ratios to it, rounded; against another site, none", () => {
  const copy = docsCopy();
  const peer = path.join(copy, 'peer');
  mkdirSync(peer);
  try {
    const before = JSON.parse(read(copy, TIMINGS_JSON));
    const load = { ...visit(100.4, 900.6, 333.3333), compared: { dir: peer, ...visit(200, 1000, 300) } };
    writeTimingsDoc(copy, { react: { load } } as never, { chromium: '160' });
    const unstamped = JSON.parse(read(copy, TIMINGS_JSON)).builds.react;
    assert.is(unstamped.viteReadySlow, before.builds.react.viteReadySlow, 'a site that is not our peer: the ratios kept');
    assert.is(unstamped.readySlowMs, 901, 'milliseconds rounded');
    writeFileSync(path.join(peer, PEER_STAMP), JSON.stringify({ peer: 'vite', sameFiles: false }));
    writeTimingsDoc(copy, { react: { load } } as never, { chromium: '160' });
    const plain = JSON.parse(read(copy, TIMINGS_JSON)).builds.react;
    assert.equal([plain.viteFirstPaintSlow, plain.viteReadySlow, plain.viteLoadToReadyLoopback], [0.5, 0.9, 1.11]);
    assert.is(plain.viteSameFilesReadySlow, before.builds.react.viteSameFilesReadySlow, 'the same-files ratios kept');
    writeFileSync(path.join(peer, PEER_STAMP), JSON.stringify({ peer: 'vite', sameFiles: true }));
    writeTimingsDoc(copy, { react: { load } } as never, { chromium: '160' });
    const sameFiles = JSON.parse(read(copy, TIMINGS_JSON)).builds.react;
    assert.equal([sameFiles.viteSameFilesLoadToReadyLoopback, sameFiles.viteSameFilesReadySlow], [1.11, 0.9]);
    assert.is(sameFiles.viteReadySlow, 0.9, 'the plain ratios kept from the run before');
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});

test('a project without the docs gets nothing written and no error', () => {
  const empty = mkdtempSync(path.join(os.tmpdir(), 'docs-timings-none-'));
  try {
    assert.is(writeTimingsDoc(empty, {}, { chromium: '160' }), false);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test.run();
