// The one launcher per engine, by name: the engine scenarios and the bench's offline-ready runs
// in Firefox and WebKit (test/bench/offline-ready-in-engines.ts) start their browser here.
import { launchChromium } from './chromium-driver';
import type { Engine, EngineName } from './driver';
import { launchFirefox } from './firefox';
import { launchWebKit } from './webkit';

const LAUNCHERS: Record<EngineName, () => Promise<Engine>> = { chromium: launchChromium, firefox: launchFirefox, webkit: launchWebKit };

/** Launches the named engine (see each launcher for what it needs installed). */
export const launchEngine = (name: EngineName): Promise<Engine> => LAUNCHERS[name]();
