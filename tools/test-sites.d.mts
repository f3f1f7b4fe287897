// Types of tools/test-sites.mjs for the TypeScript tests.
export type BuildName = 'react' | 'preact';
export type Variant = 'v1' | 'v2' | 'kill' | 'renamed' | 'base';
export const BUILDS: readonly { name: BuildName; preact: boolean }[];
export const VARIANTS: readonly Variant[];
export const TEST_BASE: string;
export function sources(root: string): string[];
export function copySources(root: string, dest: string): string;
export function buildTestSites(root: string, out: string, opts?: { parallel?: number }): Promise<string>;
