import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/**
 * A body as text, undone from its Content-Encoding (gzip, deflate, br): every body pacu shows or
 * judges goes through here, whichever command received it. As it came when it cannot be decoded.
 */
export function decodedText(body: Buffer, encoding: string | string[] | undefined): string {
  const coding = String(encoding ?? '')
    .trim()
    .toLowerCase();
  try {
    if (coding === 'gzip' || coding === 'x-gzip') return gunzipSync(body).toString('utf8');
    if (coding === 'deflate') return inflateSync(body).toString('utf8');
    if (coding === 'br') return brotliDecompressSync(body).toString('utf8');
  } catch {}
  return body.toString('utf8');
}
