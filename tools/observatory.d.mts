// Types of tools/observatory.mjs for the TypeScript tests.
export interface ObservatoryTest {
  name: string;
  result: string;
  pass: boolean;
  scoreModifier: number;
}
export function observatoryScore(
  hostname: string,
  options?: { httpPort?: number; httpsPort?: number; path?: string },
): Promise<{ score: number; grade: string; tests: ObservatoryTest[] }>;
