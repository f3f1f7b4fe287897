#!/usr/bin/env node
// The lab's own npm packages (Cloudflare Pages' runtime, the Observatory's scanner, the CSP
// Evaluator), installed into the test cache when missing, in a process of their own: the runner
// starts it with a full run, so a fresh clone's installs (about 13 s of npm) happen beside the type
// check and the unit tests rather than when the end-to-end suite's turn comes. Each install says
// what it installs and why (setup.mjs); a failed one is tried again, and reported, by the suite.
// Usage: node test/harness/lab-packages.mjs CACHE
import { ensureCspEvaluator, ensureObservatory, ensureWrangler } from './setup.mjs';

const [cache] = process.argv.slice(2);
if (!cache) {
  console.log('usage: node test/harness/lab-packages.mjs CACHE');
  process.exit(2);
}
ensureWrangler(cache);
ensureObservatory(cache);
ensureCspEvaluator(cache);
