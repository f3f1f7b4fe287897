// The virtual modules the build makes from src/ui/screens/ (tools/screens.mjs screensPlugin):
// one route per top-level file, in navigation order (each file's `navOrder`).

declare module 'app:routes' {
  /** A screen's route: its path (trailing slash, `/` for index.tsx) and its title (the file's `title`). */
  export interface Route {
    path: string;
    title: string;
  }
  /** Every screen's route, in navigation order. */
  const routes: readonly Route[];
  export default routes;
}

declare module 'app:screens' {
  import type { FunctionComponent } from 'react';
  /** A screen whose code is a chunk of its own, loaded when it is first shown. */
  export interface LazyScreen {
    /** Its file from the project's root (`src/ui/screens/status.tsx`): the page names its scripts by it. */
    source: string;
    load: () => Promise<{ default: FunctionComponent }>;
  }
  /** Route path -> the screen's component (the file's default export), or its loader (production builds, every screen but `/`). */
  const screens: Readonly<Record<string, FunctionComponent | LazyScreen>>;
  export default screens;
}

declare module 'app:lazy-screens' {
  import type { FunctionComponent } from 'react';
  /** Route path -> component of every screen but the one at `/` (production builds load them on first use: src/ui/later.ts). */
  const screens: Readonly<Record<string, FunctionComponent>>;
  export default screens;
}
