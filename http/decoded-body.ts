import { createRequire } from 'node:module';

type Zlib = typeof import('node:zlib');
let zlib: Zlib | undefined;
// zlib loads with the first compressed body: the mock's start, which imports http/, never needs it.
const codecs = (): Zlib => {
  zlib ??= createRequire(import.meta.url)('node:zlib') as Zlib;
  return zlib;
};

/** A body undone from its Content-Encoding (gzip, deflate, br); as it came when it cannot be. */
export function decodedBytes(body: Buffer, encoding: string | string[] | undefined): Buffer {
  const coding = String(encoding ?? '')
    .trim()
    .toLowerCase();
  try {
    if (coding === 'gzip' || coding === 'x-gzip') return codecs().gunzipSync(body);
    if (coding === 'deflate') return codecs().inflateSync(body);
    if (coding === 'br') return codecs().brotliDecompressSync(body);
  } catch {}
  return body;
}

/**
 * A body as text, undone from its Content-Encoding (gzip, deflate, br): every body pacu shows or
 * judges goes through here, whichever command received it. As it came when it cannot be decoded.
 */
export function decodedText(body: Buffer, encoding: string | string[] | undefined): string {
  return decodedBytes(body, encoding).toString('utf8');
}
