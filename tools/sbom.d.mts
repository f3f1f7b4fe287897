// Types of tools/sbom.mjs for the TypeScript tests.
import type { Metafile } from 'esbuild';

export const SBOM_FILE: string;
export function packageOfInput(input: string): { dir: string; name: string; file: string } | null;
export function bundledPackages(metafile: Metafile): Map<string, { name: string; files: string[] }>;
export function npmPurl(name: string, version: string): string;
