import type { Scope } from '../spec/index.ts';

/** The part of a pacu mock's control API (`/__pacu`) that provider states use. */
export interface ControlApi {
  ids(): Promise<{
    cardId: string;
    cardTransactionId: string;
    pushToCardId: string;
    merchantAccountId: string;
    userId: string;
  }>;
  addClient(
    clientId: string,
    clientSecret: string,
    scopes: readonly Scope[],
  ): Promise<{ clientId: string; clientSecret: string }>;
  /** A new push-to-card payment (no /v3 operation creates one); its transaction id. */
  createPushToCard(amount: number): Promise<string>;
}

/** A client for the control API at `origin` (`http://127.0.0.1:4010`, without `/__pacu`). */
export function createControlApi(origin: string): ControlApi {
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const url = `${origin.replace(/\/+$/, '')}/__pacu${path}`;
    const response = await fetch(url, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(
        `the mock's control API answered ${method} ${url} with HTTP ${response.status}: ${text.slice(0, 200)}`,
      );
    return JSON.parse(text) as T;
  };
  return {
    ids: () => call('GET', '/ids'),
    addClient: async (clientId, clientSecret, scopes) => {
      await call('POST', '/clients', { clientId, clientSecret, scopes });
      return { clientId, clientSecret };
    },
    createPushToCard: async (amount) =>
      (await call<{ transaction_id: string }>('POST', '/payments/card', { amount })).transaction_id,
  };
}
