// Whether some bytes are this version's copy of a file: what every download and every cache read
// of the worker checks before a byte is stored or served.
import { sri } from '../contract/sri';
import { VERSION } from './config';

/**
 * Whether `bytes` are this version's: their SHA-384 is `integrity`; for the one file with no hash
 * (integrity '': audit.json, which lists the hashes that pin the manifest, so the manifest cannot
 * hold its hash), their `version` is this worker's. A deploy landing mid-install or mid-repair
 * must not slip another version's audit in, where /about and /status would show it as this one's.
 */
export async function isThisVersions(bytes: ArrayBuffer | Uint8Array<ArrayBuffer>, integrity: string): Promise<boolean> {
  if (integrity) return (await sri(bytes)) === integrity;
  // Bytes that are not JSON are no version's.
  const audit = await new Response(bytes).json().catch(() => undefined);
  return audit?.version === VERSION;
}
