// The SRI value of some bytes (https://www.w3.org/TR/SRI/), computed with crypto.subtle: the
// page's precache check and the worker's verified downloads and cache reads share it.

/** `sha384-<base64>` of `bytes`. */
export async function sri(bytes: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<string> {
  // One character per byte of the 48-byte digest, then base64.
  return 'sha384-' + btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest('SHA-384', bytes))));
}
