// A recording holds what crossed the wire (decision 168): the request the upstream received, the
// answer the client received, framed as a browser reads it. One proxy, one byte-keeping upstream.
// Deeper property runs: PACU_RECORDING_RUNS=200 npx vitest run test/recording-wire.test.ts
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedactor, endToEnd } from '../http/index.ts';
import { type RunningProxy, startProxy } from '../proxy/index.ts';
import {
  jsonAnswer,
  type ReceivedRequest,
  type ScriptedUpstream,
  startScriptedUpstream,
} from './helpers/scripted-upstream.ts';

const RUNS = Number(process.env.PACU_RECORDING_RUNS ?? 20);
const dir = mkdtempSync(path.join(tmpdir(), 'pacu-wire-'));
const file = path.join(dir, 'wire.har');
const OK = '{"success":true,"message":"ok","data":{}}';

interface Entry {
  request: {
    method: string;
    url: string;
    headers: Array<{ name: string; value: string }>;
    postData?: { text: string; encoding?: string };
  };
  response: {
    status: number;
    headers: Array<{ name: string; value: string }>;
    content: { text?: string; encoding?: string };
  };
  _error?: string;
}

const header = (headers: ReadonlyArray<readonly [string, string]>, name: string): string | undefined =>
  headers.find(([key]) => key.toLowerCase() === name)?.[1];

/** Scripted by `x-case`; `cut-N` answers a whole JSON answer cut after N bytes. */
function script(request: ReceivedRequest): { bytes: string; cutAt?: number } {
  const name = header(request.headers, 'x-case') ?? '';
  if (name === 'continue') return { bytes: `HTTP/1.1 100 Continue\r\n\r\n${jsonAnswer(200, OK)}` };
  if (name === 'early-hints')
    return { bytes: `HTTP/1.1 103 Early Hints\r\nlink: </a.css>; rel=preload\r\n\r\n${jsonAnswer(200, OK)}` };
  if (name === 'no-content') return { bytes: 'HTTP/1.1 204 No Content\r\ncontent-length: 5\r\n\r\n' };
  if (name === 'no-content-body')
    return { bytes: 'HTTP/1.1 204 No Content\r\ncontent-length: 5\r\n\r\nhello' };
  if (name === 'not-modified') return { bytes: 'HTTP/1.1 304 Not Modified\r\ncontent-length: 41\r\n\r\n' };
  const cut = /^cut-(chunked-)?(\d+)$/.exec(name);
  if (cut) return { bytes: cutAnswer(Boolean(cut[1])), cutAt: Number(cut[2]) };
  return { bytes: jsonAnswer(200, OK) };
}

const cutAnswer = (chunked: boolean): string =>
  chunked
    ? `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n${OK.length.toString(16)}\r\n${OK}\r\n0\r\n\r\n`
    : jsonAnswer(200, OK);

let upstream: ScriptedUpstream;
let proxy: RunningProxy;
let port: number;
beforeAll(async () => {
  upstream = await startScriptedUpstream(script);
  proxy = await startProxy({ upstream: upstream.url, record: file, log: () => {}, upstreamTimeoutMs: 2000 });
  port = Number(new URL(proxy.url).port);
});
afterAll(async () => {
  await proxy?.close();
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Everything the client read on one connection for one raw request, until the proxy closed it or the answer ended. */
function send(request: Buffer | string, done: (text: string) => boolean = () => false): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const finish = (): void => {
      socket.destroy();
      resolve(text);
    };
    socket.on('data', (data) => {
      text += data.toString('latin1');
      if (done(text)) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
    socket.write(request);
  });
}

/** Done when a Content-Length answer's body is whole (or a bodiless status's head is). */
const whole = (text: string): boolean => {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return false;
  if (/^HTTP\/1\.1 (204|304)/.test(text)) return true;
  const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, end));
  return length ? text.length - end - 4 >= Number(length[1]) : /\r\n0\r\n\r\n$/.test(text);
};

const entries = (): Entry[] => JSON.parse(readFileSync(file, 'utf8')).log.entries as Entry[];
const entryOf = (id: string): Entry | undefined =>
  entries().find((entry) =>
    entry.request.headers.some((h) => h.name.toLowerCase() === 'x-id' && h.value === id),
  );
/** The upstream's request with this `x-id`. */
const receivedOf = (id: string): ReceivedRequest | undefined =>
  upstream.received.find((request) => header(request.headers, 'x-id') === id);

/** Settle: the recording writes each exchange before its answer's last bytes leave; the judges later. */
const settled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

describe('finding 5: the recorded request body is the bytes the upstream received', () => {
  it('records invalid UTF-8, binary and latin-1 bodies as base64, byte for byte', async () => {
    const bodies = {
      invalid: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      binary: Buffer.from([0, 1, 2, 0x80, 0x81, 0xc3]),
      latin1: Buffer.from('{"name":"Zoë Ça"}', 'latin1'),
    };
    for (const [id, body] of Object.entries(bodies)) {
      const head = `POST /v3/accounts HTTP/1.1\r\nhost: p\r\nx-id: ${id}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
      expect(await send(Buffer.concat([Buffer.from(head), body]), whole)).toMatch(/^HTTP\/1\.1 200/);
    }
    await settled();
    for (const [id, body] of Object.entries(bodies)) {
      expect(receivedOf(id)?.body).toEqual(body);
      const postData = entryOf(id)?.request.postData;
      expect(postData?.encoding, id).toBe('base64');
      expect(Buffer.from(postData?.text ?? '', 'base64')).toEqual(body);
    }
  });
});

describe('finding 6: the recorded request headers are the ones the upstream received', () => {
  it('leaves out what Connection names, and keeps each duplicate as it was sent', async () => {
    const cases: Record<string, string> = {
      'named-authorization': 'connection: Authorization\r\nauthorization: Bearer abcdefgh12345678\r\n',
      'named-type': 'connection: keep-alive, Content-Type\r\ncontent-type: text/plain\r\n',
      'two-authorizations':
        'authorization: Bearer first-token-1234\r\nauthorization: Bearer second-token-5678\r\n',
      'two-values': 'x-trace: one\r\nX-Trace: two\r\n',
    };
    for (const [id, lines] of Object.entries(cases))
      await send(`GET /v3/users HTTP/1.1\r\nhost: p\r\nx-id: ${id}\r\n${lines}\r\n`, whole);
    await settled();
    const hopByHop = (name: string): boolean =>
      Object.keys(endToEnd({ [name.toLowerCase()]: 'x' })).length === 0;
    for (const id of Object.keys(cases)) {
      const received = receivedOf(id);
      const recorded = entryOf(id)?.request.headers.map((h) => h.name) ?? [];
      // Names and order, as the upstream received them (values are redacted where they are credentials).
      expect(recorded, id).toEqual(received?.headers.map(([name]) => name).filter((name) => !hopByHop(name)));
    }
    expect(header(receivedOf('named-authorization')?.headers ?? [], 'authorization')).toBeUndefined();
    expect(header(receivedOf('named-type')?.headers ?? [], 'content-type')).toBeUndefined();
    expect(
      receivedOf('two-authorizations')?.headers.filter(([name]) => name === 'authorization'),
    ).toHaveLength(2);
    expect(receivedOf('two-values')?.headers.filter(([name]) => name.toLowerCase() === 'x-trace')).toEqual([
      ['x-trace', 'one'],
      ['X-Trace', 'two'],
    ]);
  });

  it('records any request as the upstream received it, byte for byte after redaction (property)', async () => {
    const token = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,11}$/);
    // Credentials' names too: the HAR holds what the upstream received, redacted by the one policy.
    const name = fc.oneof(token, fc.constantFrom('Authorization', 'X-Api-Key', 'Cookie', 'x-auth-token'));
    const value = fc
      .uint8Array({ minLength: 0, maxLength: 12 })
      .map((bytes) => Buffer.from([...bytes].map((byte) => 0x21 + (byte % 0x5e))).toString('latin1'));
    const line = fc.tuple(name, value);
    const json = fc
      .tuple(
        fc.constantFrom('user_id', 'password', 'cvv', 'card_number', 'note'),
        fc.string({ maxLength: 20 }),
      )
      .map(([key, text]) => new Uint8Array(Buffer.from(JSON.stringify({ [key]: text, a: 1 }))));
    const arbitrary = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
      segment: fc.stringMatching(/^[a-z0-9_]{1,10}$/),
      query: fc.option(fc.stringMatching(/^[a-z0-9=&%_.-]{0,20}$/), { nil: undefined }),
      lines: fc.array(line, { maxLength: 5 }),
      // A header named in Connection, and a hop-by-hop one: neither goes upstream nor in the HAR.
      named: fc.option(line, { nil: undefined }),
      body: fc.option(fc.oneof(fc.uint8Array({ maxLength: 64 }), json), { nil: undefined }),
    });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ method, segment, query, lines, named, body }) => {
        const id = `prop-${n++}`;
        const bytes = Buffer.from(body ?? []);
        const head = [
          `${method} /v3/users/${segment}${query === undefined ? '' : `?${query}`} HTTP/1.1`,
          'host: p',
          `x-id: ${id}`,
          ...lines.map(([key, text]) => `${key}: ${text}`),
          ...(named ? [`connection: ${named[0]}`, `${named[0]}: ${named[1]}`] : []),
          'keep-alive: timeout=5',
          ...(body ? [`content-length: ${bytes.length}`] : []),
        ].join('\r\n');
        await send(Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), bytes]), whole);
        await settled();
        const received = receivedOf(id);
        const entry = entryOf(id);
        expect(received).toBeDefined();
        expect(entry).toBeDefined();
        // What the upstream received, as the policy redacts it (a fresh redactor: nothing learned).
        const redactor = createRedactor();
        const upstreamLines = (received?.headers ?? [])
          .filter(([key]) => key.toLowerCase() !== 'connection')
          .map(([key, text]) => ({ name: key, value: text }));
        expect(entry?.request.headers).toEqual(redactor.redactHeaders(upstreamLines));
        expect(entry?.request.method).toBe(received?.method);
        expect(entry?.request.url).toBe(`${new URL(upstream.url).origin}${received?.target}`);
        const postData = entry?.request.postData;
        if ((received?.body.length ?? 0) === 0) expect(postData).toBeUndefined();
        else {
          const expected = redactor.redactBody(received?.body ?? Buffer.alloc(0));
          expect({ text: postData?.text, encoding: postData?.encoding }).toEqual({
            text: expected.text,
            encoding: expected.encoding,
          });
          // And a body with no judged name in it is recorded as its very bytes.
          if (!/password|cvv|card_number/.test(received?.body.toString('latin1') ?? ''))
            expect(Buffer.from(expected.text, expected.encoding ?? 'utf8')).toEqual(received?.body);
        }
      }),
      { numRuns: RUNS, seed: 38 },
    );
  });
});

describe('finding 7: a 204 or 304 with a Content-Length from the upstream', () => {
  it('answers a 204 as a browser reads it: no body, the length dropped, the connection kept', async () => {
    for (const id of ['no-content', 'no-content-body']) {
      // Two requests on one connection: the second is answered too.
      const twice = `GET /v3/users HTTP/1.1\r\nhost: p\r\nx-id: ${id}\r\nx-case: ${id}\r\n\r\nGET /v3/users HTTP/1.1\r\nhost: p\r\nx-id: ${id}-after\r\n\r\n`;
      const text = await send(twice, (read) => read.includes('"success":true'));
      expect(text, id).toMatch(/^HTTP\/1\.1 204 No Content\r\n/);
      expect(text.split('\r\n\r\n')[0]).not.toMatch(/content-length/i);
      expect(text).toMatch(/\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
    }
    await settled();
    for (const id of ['no-content', 'no-content-body']) {
      const entry = entryOf(id);
      expect(entry?.response.status).toBe(204);
      expect(entry?.response.content.text).toBe('');
      expect(entry?._error).toBeUndefined();
      expect(entry?.response.headers.some((h) => h.name === 'content-length')).toBe(false);
    }
  });

  it('forwards a 304 with its Content-Length (the size of the representation) and no body', async () => {
    const text = await send(
      `GET /v3/users HTTP/1.1\r\nhost: p\r\nx-id: nm\r\nx-case: not-modified\r\n\r\n`,
      whole,
    );
    expect(text).toMatch(/^HTTP\/1\.1 304 Not Modified\r\n/);
    expect(text).toMatch(/\r\ncontent-length: 41\r\n/i);
    expect(text.endsWith('\r\n\r\n')).toBe(true);
  });
});

describe('finding 8: 1xx before the answer', () => {
  it('answers the final answer after a 100 Continue or a 103, and records it', async () => {
    for (const id of ['continue', 'early-hints']) {
      const text = await send(
        `POST /v3/accounts HTTP/1.1\r\nhost: p\r\nx-id: ${id}\r\nx-case: ${id}\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}`,
        (read) => read.includes(OK),
      );
      expect(text, id).toMatch(/HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n\{"success":true/);
      expect(text).not.toMatch(/HTTP\/1\.1 502/);
    }
    await settled();
    for (const id of ['continue', 'early-hints']) {
      expect(entryOf(id)?.response.status).toBe(200);
      expect(entryOf(id)?.response.content.text).toBe(OK);
    }
  });
});

describe('framing: an answer cut at any byte', () => {
  it('is a 502 before its head is whole, a cut answer after, and recorded so (property)', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.nat(1000), async (chunked, at) => {
        const full = cutAnswer(chunked);
        const cutAt = at % (full.length + 1);
        const id = `cut-${n++}`;
        const text = await send(
          `GET /v3/users HTTP/1.1\r\nhost: p\r\nx-id: ${id}\r\nx-case: cut-${chunked ? 'chunked-' : ''}${cutAt}\r\n\r\n`,
          whole,
        );
        await settled();
        const entry = entryOf(id);
        const headEnd = full.indexOf('\r\n\r\n') + 4;
        if (cutAt < headEnd) {
          // No whole head, no answer: the proxy's own 502, recorded with _error.
          expect(text).toMatch(/^HTTP\/1\.1 502 /);
          expect(entry?.response.status).toBe(502);
          expect(entry?._error).toMatch(/cannot reach the upstream|closed|reset/);
        } else if (cutAt < full.length) {
          // The head came, the body broke off: the client's answer breaks off too, and no whole
          // answer reached the client: what it got is not a complete message.
          expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
          expect(whole(text)).toBe(false);
          expect(entry?.response.status).toBe(200);
          expect(entry?._error).toMatch(/broke off/);
        } else {
          expect(whole(text)).toBe(true);
          expect(entry?._error).toBeUndefined();
          expect(entry?.response.content.text).toBe(OK);
        }
      }),
      {
        numRuns: RUNS,
        seed: 38,
        // The edges: a head whole and no body byte yet, the last byte missing, nothing at all.
        examples: [true, false].flatMap((chunked) => {
          const full = cutAnswer(chunked);
          const head = full.indexOf('\r\n\r\n') + 4;
          return [head - 1, head, full.length - 1, 0].map((at): [boolean, number] => [chunked, at]);
        }),
      },
    );
  });
});
