import type { Socket } from 'node:net';

// undici takes a `100 Continue` it did not ask for as a broken answer and destroys the connection
// (client-h1.js, onHeadersComplete): the proxy answered 502. RFC 9110 15.2 asks a client to read past
// any 1xx, and browsers do: the 100s that open an answer are taken out of what undici reads (other
// 1xx, a 103, undici reads itself). Decision 168.

/** Enough of a status line to tell its code: `HTTP/1.1 100`. */
const STATUS_CODE_END = 12;
const HEAD_END = Buffer.from('\r\n\r\n');

/** `HTTP/`, byte for byte. */
const HTTP_SLASH = [0x48, 0x54, 0x54, 0x50, 0x2f];
/** The bytes after a status code that end it as JavaScript's `trimEnd()` would read them (latin1). */
const CODE_ENDS = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0]);

/** Whether a status line of `HTTP/x.y 100` opens `chunk` (at least 13 bytes), read from its bytes: no string made. */
function isContinue(chunk: Buffer): boolean {
  for (let index = 0; index < HTTP_SLASH.length; index++)
    if (chunk[index] !== HTTP_SLASH[index]) return false;
  return chunk[9] === 0x31 && chunk[10] === 0x30 && chunk[11] === 0x30 && CODE_ENDS.has(chunk[12] as number);
}

/**
 * Make undici's reads of `socket` skip the `100 Continue` answers that open an answer. An answer
 * opens with the first bytes read after a request was written (undici writes a request whole, and
 * sends the next one only once the last answer ended), so only those bytes are looked at.
 */
export function skipContinue(socket: Socket): Socket {
  const read = socket.read.bind(socket);
  const write = socket.write.bind(socket);
  let opening = false;
  let held: Buffer | undefined;
  socket.write = ((...args: Parameters<Socket['write']>) => {
    opening = true;
    return write(...args);
  }) as Socket['write'];
  socket.read = ((size?: number) => {
    let chunk = read(size) as Buffer | null;
    if (!opening || chunk === null) return chunk;
    if (held) {
      chunk = Buffer.concat([held, chunk]);
      held = undefined;
    }
    for (;;) {
      if (chunk.length < STATUS_CODE_END + 1) {
        // Too little to tell yet: wait for more (undici reads again at the next 'readable').
        held = chunk;
        return null;
      }
      if (!isContinue(chunk)) {
        opening = false;
        return chunk;
      }
      const end = chunk.indexOf(HEAD_END);
      if (end < 0) {
        held = chunk;
        return null;
      }
      chunk = chunk.subarray(end + HEAD_END.length);
      if (chunk.length === 0) return null;
    }
  }) as Socket['read'];
  return socket;
}
