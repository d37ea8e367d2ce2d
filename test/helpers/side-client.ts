// One side of a comparison (a provider, or the mock made from its recording) as a client team
// reaches it: its base URL, its own client, a token per scope asked for.
import { request } from 'undici';

export interface Answer {
  readonly status: number;
  readonly json: { success?: unknown; message?: unknown; data?: Record<string, unknown> } | undefined;
}

export interface Side {
  readonly url: string;
  /** A token of `scope` (comma-separated), fetched once per scope and again when it has aged. */
  token(scope?: string): Promise<string>;
  send(method: string, path: string, options?: { token?: string; json?: unknown }): Promise<Answer>;
}

const ALL_SCOPES = 'card,us_account';

export function sideClient(url: string, clientId: string, clientSecret: string): Side {
  const tokens = new Map<string, { token: string; renewAt: number }>();
  const send: Side['send'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = {};
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    const answer = await request(`${url}${path}`, {
      method: method as 'GET',
      headers,
      ...(options.json !== undefined ? { body: JSON.stringify(options.json) } : {}),
    });
    const text = await answer.body.text();
    let json: Answer['json'];
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: answer.statusCode, json };
  };
  return {
    url,
    send,
    async token(scope = ALL_SCOPES) {
      const held = tokens.get(scope);
      if (held && Date.now() < held.renewAt) return held.token;
      const answer = await request(`${url}/auth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        },
        body: `grant_type=client_credentials&scope=${scope}`,
      });
      const data = ((await answer.body.json()) as { data?: Record<string, unknown> }).data ?? {};
      const token = String(data.access_token);
      // A quarter of its life: the space has tokens of 2 s.
      const lifeMs = Number(data.expires_in_seconds ?? 3600) * 1000;
      tokens.set(scope, { token, renewAt: Date.now() + lifeMs / 4 });
      return token;
    },
  };
}
