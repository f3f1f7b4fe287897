// Types of tools/engines.mjs for the TypeScript tests.
export type EngineName = 'chromium' | 'firefox' | 'webkit';
export const ENGINES: EngineName[];
export const NETNS_LINK: string;
export interface EngineExecutable {
  what: string;
  env: string | null;
  path: string;
  install: string;
}
export function engineExecutables(name: EngineName): EngineExecutable[];
export function missingEngine(name: EngineName): string | null;
export function setNamespaceNetwork(online: boolean): Promise<void>;
export function inEngineNamespace(): Promise<boolean>;
export function runEngineTest(options: { engine: EngineName; file: string; build?: 'react' | 'preact'; env?: Record<string, string>; capture?: boolean; timeout?: number }): Promise<{ code: number; out: string }>;
