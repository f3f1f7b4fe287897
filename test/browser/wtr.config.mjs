// @web/test-runner config: Debian's Chromium, headless. test/harness/runner.mjs bundles test/browser/*.test.tsx
// twice (React and Preact builds) and passes the bundles in WTR_FILES; the counting reporter writes
// { passed, failed } to WTR_RESULT so `npm test` can sum every suite.
import { writeFileSync } from 'node:fs';
import { defaultReporter } from '@web/test-runner';
import { chromeLauncher } from '@web/test-runner-chrome';
import { CHROME_ARGS, chromePath } from '../harness/chromium.mjs';

/** Counts tests over all sessions; a session that failed to load counts as one failure. */
function countingReporter() {
  return {
    onTestRunFinished({ sessions }) {
      let passed = 0;
      let failed = 0;
      const walk = (suite) => {
        for (const t of suite.tests) if (!t.skipped) t.passed ? passed++ : failed++;
        for (const s of suite.suites) walk(s);
      };
      for (const s of sessions) {
        if (s.testResults) walk(s.testResults);
        if (!s.passed && (s.errors?.length || !s.testResults)) failed++;
      }
      if (process.env.WTR_RESULT) writeFileSync(process.env.WTR_RESULT, JSON.stringify({ passed, failed }));
    },
  };
}

export default {
  files: process.env.WTR_FILES || '.cache/browser/**/*.test.mjs',
  nodeResolve: true,
  concurrency: 1,
  staticLogging: true, // no progress bar: CI logs stay readable
  testFramework: { config: { timeout: 10000, ui: 'bdd' } },
  browsers: [chromeLauncher({ launchOptions: { executablePath: chromePath(), headless: true, args: CHROME_ARGS } })],
  reporters: [defaultReporter(), countingReporter()],
};
