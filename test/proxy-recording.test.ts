// A recording keeps every exchange whose answer reached the client,
// across a kill -9 of a real `pacu proxy` process; a restart continues it and never wipes it; an
// answer the upstream cut, and a 502 or 504, are recorded as browsers record them and reported.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { startProxy } from '../proxy/index.ts';
import { type StartedProxy, startProxyCli } from './helpers/proxy-process.ts';
import { tokenFor, transferBody } from './mock-helpers.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pacu-recording-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A pool size given: the process started is the one that serves and writes (no relaunched child). */
const SERVING_PROCESS = { NODE_OPTIONS: '--v8-pool-size=0' };

interface HarFile {
  log: {
    entries: Array<{
      request: { url: string; headers: Array<{ name: string; value: string }> };
      response: { status: number; content: { text?: string } };
      _error?: string;
    }>;
  };
}

const readRecording = (file: string): HarFile => JSON.parse(readFileSync(file, 'utf8')) as HarFile;
/** The `x-request-id` each recorded request carried. */
const recordedIds = (file: string): Set<string> =>
  new Set(
    readRecording(file).log.entries.flatMap(
      (entry) =>
        entry.request.headers.find((header) => header.name.toLowerCase() === 'x-request-id')?.value ?? [],
    ),
  );

async function killed(proxy: StartedProxy): Promise<void> {
  proxy.child.kill('SIGKILL');
  await proxy.exit;
}

let mock: RunningMock;
let token: string;
beforeAll(async () => {
  mock = await startMock({ log: () => {} });
  token = await tokenFor(mock);
});
afterAll(() => mock?.close());

/** One exchange through the proxy, acknowledged only once its whole answer was read. */
async function exchange(url: string, id: string, post: boolean): Promise<boolean> {
  try {
    const answer = await request(post ? `${url}/payments/usd/direct` : `${url}/users`, {
      method: post ? 'POST' : 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        'x-request-id': id,
        ...(post ? { 'content-type': 'application/json' } : {}),
      },
      ...(post
        ? { body: JSON.stringify(transferBody(mock.seeded.merchantAccountId, { reference: id })) }
        : {}),
    });
    await answer.body.text();
    return answer.statusCode === 200;
  } catch {
    return false;
  }
}

describe('finding 7: answered exchanges survive a kill -9', () => {
  it('has every exchange whose answer a client read in the recording, under load, over rounds', async () => {
    for (let round = 0; round < 3; round++) {
      const file = path.join(dir, `load-${round}.har`);
      const proxy = await startProxyCli(['--upstream', mock.url, '--record', file], SERVING_PROCESS);
      const acknowledged: string[] = [];
      let stop = false;
      const client = async (name: number): Promise<void> => {
        for (let n = 0; !stop; n++) {
          const id = `r${round}-c${name}-${n}`;
          if (await exchange(proxy.info.url, id, n % 2 === 0)) acknowledged.push(id);
        }
      };
      const clients = Array.from({ length: 8 }, (_, name) => client(name));
      // Kill it in full flow, once a few hundred exchanges were acknowledged.
      while (acknowledged.length < 200 + round * 100) await new Promise((resolve) => setTimeout(resolve, 10));
      await killed(proxy);
      stop = true;
      await Promise.all(clients);
      // A whole HAR, holding every acknowledged exchange.
      const recorded = recordedIds(file);
      expect(acknowledged.filter((id) => !recorded.has(id))).toEqual([]);
    }
  }, 120_000);

  it('has the first POST in the recording when the proxy is killed as soon as its answer is read', async () => {
    for (let round = 0; round < 5; round++) {
      const file = path.join(dir, `first-${round}.har`);
      const proxy = await startProxyCli(['--upstream', mock.url, '--record', file], SERVING_PROCESS);
      expect(await exchange(proxy.info.url, `first-${round}`, true)).toBe(true);
      await killed(proxy);
      expect([...recordedIds(file)]).toEqual([`first-${round}`]);
    }
  }, 120_000);
});

describe('finding 8: a restart on the same recording', () => {
  it('continues a recording a crash left, never truncating it', async () => {
    const file = path.join(dir, 'continued.har');
    const first = await startProxyCli(['--upstream', mock.url, '--record', file], SERVING_PROCESS);
    for (let n = 0; n < 20; n++) await exchange(first.info.url, `before-${n}`, n % 2 === 0);
    await killed(first);
    const bytesBefore = readFileSync(file).length;
    const second = await startProxyCli(['--upstream', mock.url, '--record', file], SERVING_PROCESS);
    for (let n = 0; n < 5; n++) await exchange(second.info.url, `after-${n}`, false);
    second.child.kill('SIGTERM');
    await second.exit;
    expect(readFileSync(file).length).toBeGreaterThan(bytesBefore);
    const ids = [...recordedIds(file)];
    expect(ids).toEqual([
      ...Array.from({ length: 20 }, (_, n) => `before-${n}`),
      ...Array.from({ length: 5 }, (_, n) => `after-${n}`),
    ]);
  }, 60_000);

  it('refuses, with one line and exit 2, a file that is not a pacu recording, and leaves it as it was', async () => {
    const file = path.join(dir, 'notes.har');
    writeFileSync(file, '{"log":{"version":"1.2","creator":{"name":"Firefox"},"entries":[]}}');
    const before = readFileSync(file, 'utf8');
    const started = startProxyCli(['--upstream', mock.url, '--record', file], SERVING_PROCESS);
    // A proxy that started anyway is stopped, whatever the verdict.
    started.then((proxy) => proxy.child.kill('SIGKILL')).catch(() => {});
    await expect(started).rejects.toThrow(
      /exited with 2: pacu: --record .*notes\.har exists and is not a recording pacu can continue[^\n]*\n$/,
    );
    expect(readFileSync(file, 'utf8')).toBe(before);
  }, 30_000);
});

describe('finding 10: answers that are not whole', () => {
  let upstream: Server;
  let url: string;
  beforeAll(async () => {
    // /v3/users breaks off mid-body; /v3/cards/virtual/slow never answers; anything else resets.
    upstream = createServer((req, res) => {
      if (req.url === '/v3/users') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"success":true,"message":"ok","data":{"items":[');
        setTimeout(() => res.socket?.destroy(), 50);
      } else if (req.url === '/v3/cards/virtual/slow') {
        // Never answers: the proxy gives up after its upstream timeout.
      } else req.socket.destroy();
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/v3`;
  });
  afterAll(() => {
    upstream.closeAllConnections();
    upstream.close();
  });

  it('records a cut answer with its status and _error, files a provider finding, and cuts the client', async () => {
    const file = path.join(dir, 'cut.har');
    const lines: string[] = [];
    const proxy = await startProxy({
      upstream: url,
      record: file,
      upstreamTimeoutMs: 300,
      onFinding: (finding) => lines.push(`${finding.side} ${finding.rule}: ${finding.reason}`),
    });
    try {
      await expect(request(`${proxy.url}/users`).then((answer) => answer.body.text())).rejects.toThrow();
      expect((await request(`${proxy.url}/accounts`, { method: 'POST', body: '{}' })).statusCode).toBe(502);
      expect((await request(`${proxy.url}/cards/virtual/slow`)).statusCode).toBe(504);
      await proxy.close();
      const entries = readRecording(file).log.entries;
      expect(entries.map((entry) => [entry.response.status, Boolean(entry._error)])).toEqual([
        [200, true],
        [502, true],
        [504, true],
      ]);
      expect(entries[0]?._error).toMatch(/broke off its answer after \d+ bytes of 1000/);
      expect(entries[0]?.response.content.text).toBe('{"success":true,"message":"ok","data":{"items":[');
      expect(lines).toEqual([
        expect.stringMatching(/^provider transport\.cut-answer: the upstream .* broke off its answer/),
        expect.stringMatching(/^provider transport\.no-answer: cannot reach the upstream/),
        expect.stringMatching(/^provider transport\.no-answer: the upstream .* did not answer within 300 ms/),
      ]);
    } finally {
      await proxy.close();
    }
  });
});
