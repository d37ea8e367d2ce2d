import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../suites/index.ts';
import { runCli } from './helpers/run-cli.ts';

// A provider that compresses every answer, as some bank sandboxes do whatever the client asked:
// every body pacu shows (verify's failures, check's evidence) must be the text, decoded first.

const CARD = {
  success: true,
  message: 'ok',
  data: { card_id: 'card_1', card_name: 'Travel', card_status: 'ACTIVE' },
};
const ENCODE = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;
type Coding = keyof typeof ENCODE;

let server: Server;
let base: string;
let dir: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    const coding = (request.url?.match(/coding=(\w+)/)?.[1] ?? 'gzip') as Coding;
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
    response.end(ENCODE[coding](JSON.stringify(CARD)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`;
  dir = await mkdtemp(join(tmpdir(), 'pacu-decoded-'));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

/** One interaction the provider fails: it expects a `nickname` the card record lacks. */
async function pactExpectingNickname(): Promise<string> {
  const file = join(dir, 'shop-bank.json');
  const body = { success: true, data: { card_id: 'card_1', nickname: 'Ops' } };
  const type = { combine: 'AND', matchers: [{ match: 'type' }] };
  const pact = {
    consumer: { name: 'shop' },
    provider: { name: 'bank' },
    metadata: { pactSpecification: { version: '4.0' } },
    interactions: [
      {
        type: 'Synchronous/HTTP',
        description: 'a request for a virtual card',
        providerStates: [],
        request: { method: 'GET', path: '/cards/virtual/card_1' },
        response: {
          status: 200,
          headers: { 'Content-Type': ['application/json'] },
          body: { content: body, contentType: 'application/json', encoded: false },
          matchingRules: { body: { '$.data.card_id': type, '$.data.nickname': type } },
        },
      },
    ],
  };
  await writeFile(file, JSON.stringify(pact));
  return file;
}

describe('bodies a compressing provider answers are shown decoded', () => {
  // The Pact verifier child starts here: on a loaded machine, slower than the default 30 s allows.
  it("pacu verify: the failed interaction's response, in the console and the JSON report", async () => {
    const json = join(dir, 'verify.json');
    const run = await runCli([
      'verify',
      '--target',
      base,
      '--pact',
      await pactExpectingNickname(),
      '--reporter',
      'console',
      '--reporter',
      `json:${json}`,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const text = JSON.stringify(CARD);
    expect(run.stdout).toContain(text);
    expect(run.stdout).not.toContain('\ufffd');
    const report = JSON.parse(await readFile(json, 'utf8'));
    expect(report.rules[0].failure.response.body).toBe(text);
  }, 90_000);

  it.each(['gzip', 'deflate', 'br'] as const)(
    'the API client behind check and replay reads %s as text and JSON',
    async (coding) => {
      const api = createApiClient({ baseUrl: base });
      try {
        const answer = await api.send({
          method: 'GET',
          path: `/cards/virtual/card_1?coding=${coding}`,
          headers: {},
        });
        expect(answer.text).toBe(JSON.stringify(CARD));
        expect(answer.json).toEqual(CARD);
      } finally {
        await api.close();
      }
    },
  );
});
