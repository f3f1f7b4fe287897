// The bundle's composition, dist/bundle.json (written by tools/pipeline/composition.mjs), as the page reads it.

/** One input module of an output, with the bytes it put into it. */
export interface BundleModule {
  /** Within its package (cjs/react-dom-client.production.js), or from the project's root (src/ui/App.tsx). */
  path: string;
  bytes: number;
}

/** An npm package (with its version, as in the SBOM), or one of the app's own folders (own: true, no version). */
export interface BundleGroup {
  name: string;
  version: string | null;
  own: boolean;
  bytes: number;
  modules: BundleModule[];
}

/** One shipped script or stylesheet: its size, its groups largest first, and what esbuild adds itself. */
export interface BundleOutput {
  path: string;
  bytes: number;
  /** The output's bytes that no module put there: esbuild's banner, CommonJS wrappers and helpers. */
  esbuild: number;
  groups: BundleGroup[];
}

/** dist/bundle.json. */
export interface BundleComposition {
  build: 'react' | 'preact';
  outputs: BundleOutput[];
}
