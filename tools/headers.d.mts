// Types of tools/headers.mjs for the TypeScript tests.
export const HASHED_ASSET_PATTERN: string;
export const CACHE_CONTROL: { immutable: string; revalidate: string };
export const SECURITY_HEADERS: Record<string, string>;
export const MANIFEST_TYPE: string;
export const CONTENT_TYPES: Record<string, string>;
export function cacheControlOf(urlPath: string): string;
export function headersFor(urlPath: string): Record<string, string>;
export function urlPathsOf(filePath: string): string[];
export function headersFile(filePaths: Iterable<string>, base?: string): string;
export function nginxServerBlock(): string;
export const HEADERS_FILE: string;
export const CONTENT_SECURITY_POLICY: Record<string, string>;
export const DENIED_FEATURES: string[];
export const STRICT_TRANSPORT_SECURITY: string;
export function nginxHttpsConfig(): string;
