// The SRI value of some bytes (https://www.w3.org/TR/SRI/), computed with crypto.subtle: the
// page's precache check and the worker's verified downloads and cache reads share it.

/** `sha384-<base64>` of `bytes`. */
export async function sri(bytes: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', bytes));
  let binary = '';
  // One character per byte; spreading 48 bytes into fromCharCode would do too, but a loop reads plainly.
  for (const byte of digest) binary += String.fromCharCode(byte);
  return 'sha384-' + btoa(binary);
}
