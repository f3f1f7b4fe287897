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
  /** Route path -> the screen's component (the file's default export). */
  const screens: Readonly<Record<string, FunctionComponent>>;
  export default screens;
}
