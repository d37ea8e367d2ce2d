import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TargetUnreachableError } from '../../spec/index.ts';
import { createApiClient } from '../index.ts';

// An echo server: answers every request with what it received, so the client's encoding is visible.
let server: Server;
let baseUrl: string;

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return body;
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = await readBody(request);
    response.setHeader('content-type', 'application/json; charset=utf-8');
    response.end(
      JSON.stringify({ method: request.method, url: request.url, headers: request.headers, body }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('createApiClient', () => {
  it('sends the token request form-encoded with HTTP Basic credentials', async () => {
    const api = createApiClient({ baseUrl });
    const response = await api.getAccessToken({ clientId: 'id', clientSecret: 's:cret', scope: 'card' });
    const echo = response.json as { url: string; headers: Record<string, string>; body: string };
    expect(echo.url).toBe('/v3/auth/token');
    expect(echo.headers.authorization).toBe(`Basic ${Buffer.from('id:s:cret').toString('base64')}`);
    expect(echo.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(echo.body).toBe('grant_type=client_credentials&scope=card');
    await api.close();
  });

  it('sends JSON with a bearer token and escapes path segments', async () => {
    const api = createApiClient({ baseUrl: `${baseUrl}/` });
    const posted = await api.createAccount({ hold_balance: true, user_id: 'u1' }, 'tok');
    const echo = posted.json as { headers: Record<string, string>; body: string };
    expect(echo.headers.authorization).toBe('Bearer tok');
    expect(JSON.parse(echo.body)).toEqual({ hold_balance: true, user_id: 'u1' });
    const read = await api.getCardTransaction('a/b', 'c d');
    expect((read.json as { url: string }).url).toBe('/v3/cards/a%2Fb/transactions/c%20d');
    const listed = await api.listUsers({ page: 2 });
    expect((listed.json as { url: string }).url).toBe('/v3/users?page=2');
    expect(listed.headers['content-type']).toBe('application/json; charset=utf-8');
    await api.close();
  });

  it('throws TargetUnreachableError with a one-line hint when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const api = createApiClient({ baseUrl: `http://127.0.0.1:${port}/v3` });
    await expect(api.listUsers()).rejects.toThrow(TargetUnreachableError);
    await expect(api.listUsers()).rejects.toThrow(/cannot reach target .*connection refused/);
    await api.close();
  });
});
