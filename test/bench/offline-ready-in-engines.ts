// Offline-ready in one browser engine, for `npm run bench` (test/bench/engines.mjs runs it in
// Firefox and WebKit through test/harness/engines.mjs, WebKit inside its own network namespace and Xvfb,
// so the sites are served from inside that process). On each profile (a link: loopback, or a
// paced one), first visits in fresh profiles to each site in turn: when
// `navigator.serviceWorker.ready` resolved and when `load` started, both measured by the page. Not
// a test: it prints one line, `offline-ready: <JSON>`, for the bench.
// Input (environment): ENGINE, BENCH_SITES (JSON [{ label, dir }]), BENCH_PROFILES (JSON
// [{ name, pace? }]) and BENCH_RUNS.
import { listen, type Pace } from '../../tools/serve/server.mjs';
import { ENGINE_NAMES, type EngineName, type Engine } from '../e2e/lib/driver';
import { launchEngine } from '../e2e/lib/launch-engine';

/** One first visit as the page measured it (ms from its navigation's start). */
interface Visit {
  loadMs: number;
  readyMs: number;
  /** The worker was active before the page began to wait: readyMs is then only an upper bound. */
  late: boolean;
}

/** A site to visit: a name for the report and the folder of its built files. */
interface Site {
  label: string;
  dir: string;
}

/** A link to visit on: its name for the report, and the server's pace (none on loopback). */
interface LinkProfile {
  name: string;
  pace?: Pace;
}

/** How long one visit may take to be ready. */
const READY_LIMIT_MS = 30_000;

/** Reads the run's input from the environment, or throws one line naming what is wrong. */
function readInput(): { engineName: EngineName; sites: Site[]; profiles: LinkProfile[]; runs: number } {
  const engineName = process.env.ENGINE as EngineName;
  if (!ENGINE_NAMES.includes(engineName)) throw new Error(`ENGINE must be one of ${ENGINE_NAMES.join(', ')}`);
  const sites = JSON.parse(process.env.BENCH_SITES ?? '[]') as Site[];
  if (!sites.length) throw new Error('BENCH_SITES must name at least one { label, dir }');
  const profiles = JSON.parse(process.env.BENCH_PROFILES ?? '[{ "name": "loopback" }]') as LinkProfile[];
  if (!profiles.length) throw new Error('BENCH_PROFILES must name at least one { name, pace? }');
  const runs = Number(process.env.BENCH_RUNS);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('BENCH_RUNS must be a whole number ≥ 1');
  return { engineName, sites, profiles, runs };
}

/** One first visit to `url` in a fresh profile of `engine`. */
async function firstVisit(engine: Engine, url: string): Promise<Visit> {
  const profile = await engine.newProfile();
  try {
    const tab = await profile.open(url);
    // open() resolves at `load`; an install takes longer than that, so the wait starts before the
    // worker is active (the page says so if not, and the number is then marked late).
    return await tab.evaluate(async (limitMs) => {
      const registration = await navigator.serviceWorker.getRegistration();
      const late = !!registration?.active;
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no active worker in time')), limitMs));
      await Promise.race([navigator.serviceWorker.ready, timeout]);
      const readyMs = performance.now();
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { loadMs: navigation.loadEventStart, readyMs, late };
    }, READY_LIMIT_MS);
  } finally {
    await profile.close();
  }
}

/** `runs` rounds of one first visit to each site in turn, each on its own server with the link's pace. */
async function visitInTurn(engine: Engine, sites: Site[], link: LinkProfile, runs: number): Promise<Record<string, Visit[]>> {
  const servers = await Promise.all(sites.map((site) => listen({ root: site.dir, port: 0, pace: link.pace })));
  try {
    const visits: Record<string, Visit[]> = Object.fromEntries(sites.map((site) => [site.label, []]));
    for (let run = 0; run < runs; run++)
      for (const [index, site] of sites.entries()) visits[site.label].push(await firstVisit(engine, servers[index].url));
    return visits;
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

const { engineName, sites, profiles, runs } = readInput();
const engine = await launchEngine(engineName);
try {
  const visits: Record<string, Record<string, Visit[]>> = {};
  for (const link of profiles) visits[link.name] = await visitInTurn(engine, sites, link, runs);
  console.log(`offline-ready: ${JSON.stringify({ engine: engine.version, visits })}`);
} finally {
  await engine.close();
}
