// The worker's script URL as Trusted Types require it. The app's policy (tools/headers.mjs) has
// `require-trusted-types-for 'script'`: every string that reaches a script sink must come from a
// named policy, and `navigator.serviceWorker.register()` is one (Trusted Types, "TrustedScriptURL"
// sinks; Chromium, Firefox and Safari throw a TypeError for a plain string). The app's only sink is
// this one, so its only policy turns exactly one string, the worker's URL, into a TrustedScriptURL.
import { withBase } from '../contract/base';

/**
 * The name of the app's one Trusted Types policy: the `trusted-types` directive of tools/headers.mjs
 * names exactly it (a unit test holds the two equal). A fixed name: two apps on one origin each
 * have their own pages, each with its own policy, so the names never meet in one document.
 */
export const WORKER_URL_POLICY = 'service-worker-url';

/** The worker's URL at the app's base: the one string the policy trusts. */
export const WORKER_SCRIPT_PATH = withBase('/sw.js');

/** The part of the Trusted Types API the app uses (TypeScript's DOM library does not declare it yet). */
interface TrustedTypePolicyFactory {
  createPolicy(name: string, rules: { createScriptURL(input: string): string }): { createScriptURL(input: string): unknown };
}

let policy: { createScriptURL(input: string): unknown } | undefined;

/**
 * The worker's URL as register() accepts it under Trusted Types: a TrustedScriptURL from the one
 * policy (created once: a second createPolicy with the same name throws without
 * 'allow-duplicates'), or the plain string in a browser without Trusted Types, which checks nothing.
 */
export function workerScriptUrl(): string {
  const factory = (globalThis as { trustedTypes?: TrustedTypePolicyFactory }).trustedTypes;
  if (!factory) return WORKER_SCRIPT_PATH;
  policy ??= factory.createPolicy(WORKER_URL_POLICY, {
    createScriptURL(input) {
      // A policy that passes any string on would make the sink open again: only our worker.
      if (input !== WORKER_SCRIPT_PATH) throw new TypeError(`${WORKER_URL_POLICY} trusts only ${WORKER_SCRIPT_PATH}, not ${input}`);
      return input;
    },
  });
  // register() takes a TrustedScriptURL where it takes a string (it is stringified after the
  // check); TypeScript's DOM types know only the string.
  return policy.createScriptURL(WORKER_SCRIPT_PATH) as string;
}
