// An upstream that keeps the bytes of every request exactly as they arrived and answers with raw
// bytes a test scripts (1xx before the answer, a length on a 204, an answer cut at any byte):
// what node:http would tidy up on either side is what these tests look at.
import { createServer, type Server, type Socket } from 'node:net';

/** A request as the upstream received it, byte for byte. */
export interface ReceivedRequest {
  readonly method: string;
  readonly target: string;
  /** Header lines in order, names as sent, values as latin1 text (the bytes on the wire). */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
}

/** How to answer: the bytes, and where to cut the connection (after `cutAt` bytes) if at all. */
export interface ScriptedAnswer {
  readonly bytes: Buffer | string;
  readonly cutAt?: number;
}

export interface ScriptedUpstream {
  /** `http://127.0.0.1:PORT/v3` */
  readonly url: string;
  /** Every request received, in order. */
  readonly received: ReceivedRequest[];
  close(): Promise<void>;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** A whole HTTP/1.1 answer with a JSON body and a Content-Length. */
export const jsonAnswer = (status: number, body: string, extra = ''): string =>
  `HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

function parse(head: string): Omit<ReceivedRequest, 'body'> & { length: number } {
  const [line = '', ...rest] = head.split('\r\n');
  const [method = '', target = ''] = line.split(' ');
  const headers = rest.map((text): [string, string] => {
    const colon = text.indexOf(':');
    return [text.slice(0, colon), text.slice(colon + 1).trim()];
  });
  const length = Number(headers.find(([name]) => name.toLowerCase() === 'content-length')?.[1] ?? 0);
  return { method, target, headers, length };
}

/** Start it on 127.0.0.1 and a free port; `answer` scripts each request's answer. */
export async function startScriptedUpstream(
  answer: (request: ReceivedRequest) => ScriptedAnswer,
): Promise<ScriptedUpstream> {
  const received: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf(HEAD_END);
        if (end < 0) return;
        const { length, ...request } = parse(buffer.subarray(0, end).toString('latin1'));
        const total = end + HEAD_END.length + length;
        if (buffer.length < total) return;
        const whole: ReceivedRequest = { ...request, body: Buffer.from(buffer.subarray(end + 4, total)) };
        buffer = buffer.subarray(total);
        received.push(whole);
        const { bytes, cutAt } = answer(whole);
        const raw = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
        if (cutAt === undefined) socket.write(raw);
        else {
          socket.write(raw.subarray(0, cutAt));
          // After the bytes left: the cut is a FIN after exactly `cutAt` bytes.
          socket.end();
          return;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v3`,
    received,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
