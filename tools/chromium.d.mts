// Types of tools/chromium.mjs for the TypeScript tests.
export const CHROME_ARGS: string[];
export function chromePath(): string;
