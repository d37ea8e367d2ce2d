import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../spec/index.ts';
import { collectPactFiles, readPactFile } from './pact-file.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pacu-pact-file-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readPactFile', () => {
  it('reads a V2 pact: one provider state, a query string, flat body rules', async () => {
    const file = join(dir, 'v2.json');
    await writeFile(
      file,
      JSON.stringify({
        consumer: { name: 'old-app' },
        provider: { name: 'payments' },
        interactions: [
          {
            description: 'page two of the users',
            providerState: 'a user exists',
            request: {
              method: 'get',
              path: '/users',
              query: 'page=2&per_page=20',
              headers: { Authorization: 'Bearer x' },
            },
            response: {
              status: 200,
              headers: { 'Content-Type': 'application/json' },
              body: { data: { items: [] } },
              matchingRules: {
                '$.body.data.items': { min: 0, match: 'type' },
                '$.headers.Content-Type': { match: 'regex' },
              },
            },
          },
        ],
        metadata: { pactSpecification: { version: '2.0.0' } },
      }),
    );
    const [interaction] = await readPactFile(file);
    expect(interaction).toMatchObject({
      consumer: 'old-app',
      providerStates: [{ name: 'a user exists', params: {} }],
      request: {
        method: 'GET',
        path: '/users',
        query: { page: ['2'], per_page: ['20'] },
        headers: { authorization: ['Bearer x'] },
      },
      response: { status: 200, body: { data: { items: [] } }, contentType: 'application/json' },
    });
    expect([...(interaction?.response.bodyRules ?? [])]).toEqual([
      ['$.data.items', [{ min: 0, match: 'type' }]],
    ]);
  });

  it('leaves out V4 interactions that are not HTTP', async () => {
    const file = join(dir, 'v4-messages.json');
    await writeFile(
      file,
      JSON.stringify({
        consumer: { name: 'c' },
        provider: { name: 'p' },
        interactions: [{ type: 'Asynchronous/Messages', description: 'an event' }],
        metadata: { pactSpecification: { version: '4.0' } },
      }),
    );
    expect(await readPactFile(file)).toEqual([]);
  });
});

describe('collectPactFiles', () => {
  it('takes the *.json files of a folder, sorted, and refuses what is not there', async () => {
    await writeFile(join(dir, 'notes.txt'), 'not a pact');
    expect((await collectPactFiles([dir])).map((file) => file.slice(dir.length + 1))).toEqual([
      'v2.json',
      'v4-messages.json',
    ]);
    await expect(collectPactFiles([join(dir, 'missing.json')])).rejects.toThrow(ConfigError);
  });
});
