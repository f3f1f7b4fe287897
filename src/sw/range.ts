// Range requests (media seeking, resumable downloads) answered from a cached whole file.

/**
 * The bytes [first, last] that a `Range` header asks of a file of `size` bytes (RFC 9110 14.1.2),
 * or undefined when it is not one satisfiable byte range: a server may then ignore it and send 200.
 */
export function parseRange(header: string, size: number): [number, number] | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header);
  if (!match) return undefined;
  const [, firstText, lastText] = match;
  // `bytes=-N` is a suffix: the last N bytes. `bytes=-` gives first = size, so nothing.
  const first = firstText ? Number(firstText) : Math.max(0, size - Number(lastText));
  const last = firstText && lastText ? Math.min(Number(lastText), size - 1) : size - 1;
  if (first > last) return undefined;
  return [first, last];
}

/**
 * A 206 with the asked bytes of a cached file; the whole file (200) when the range cannot be
 * served, which RFC 9110 allows.
 */
export async function rangeResponse(whole: Response, rangeHeader: string): Promise<Response> {
  const body = await whole.clone().blob();
  const range = parseRange(rangeHeader, body.size);
  if (!range) return whole;
  const [first, last] = range;
  return new Response(body.slice(first, last + 1), {
    status: 206,
    headers: {
      // The file's own Content-Type: a Blob's type keeps only the MIME essence (no charset).
      'content-type': whole.headers.get('content-type') || body.type,
      'content-range': `bytes ${first}-${last}/${body.size}`,
    },
  });
}
