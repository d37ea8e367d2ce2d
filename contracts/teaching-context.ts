import { randomBytes } from 'node:crypto';
import { OPERATION_ROUTES, type OperationId, pathFor } from '../spec/index.ts';
import {
  type ApiClient,
  type ApiRequest,
  type ApiResponse,
  basic,
  bearer,
  type TargetIds,
} from '../suites/index.ts';

/** The path of an operation with its parameters, from the spec's routes (one home for each path). */
export const pathOf = (id: OperationId, params: Record<string, string> = {}): string =>
  pathFor({ id, path: OPERATION_ROUTES[id].path }, params);

/** One request of the session, what it teaches and how the sandbox answered. */
export interface TaughtStep {
  readonly teaches: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

/** Thrown by `send` once the session's budget of requests is spent: the phase stops there. */
export class BudgetSpent extends Error {
  constructor() {
    super('the teaching session spent its budget of requests');
  }
}

/** Tokens that live this long or less are renewed at a quarter of their life, not at half. */
const SHORT_LIFETIME_MS = 30_000;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' } as const;

export const dataOf = (response: ApiResponse): Record<string, unknown> | undefined => {
  const data = (response.json as { data?: unknown } | undefined)?.data;
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : undefined;
};

export interface Found {
  userId?: string;
  accountId?: string;
  /** The user list without a query, and with each paging query the session sent. */
  firstPage?: Record<string, unknown>;
  pages?: Record<string, Record<string, unknown> | undefined>;
  /** Bodies of the transfers the sandbox took, in order: what `--follow` reads again. */
  transfers?: Array<Record<string, unknown>>;
}

/** What the phases of a session share: its client, its budget, its tokens and what it found. */
export interface Teacher {
  readonly tag: string;
  readonly ids: TargetIds;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly steps: TaughtStep[];
  /** Requests the budget still allows. */
  remaining(): number;
  /** A reference no request of this session used, unique across runs. */
  reference(): string;
  send(teaches: string, request: ApiRequest): Promise<ApiResponse>;
  /** A token request; the token when the sandbox issued one. */
  tokenOf(teaches: string, scope: string, secret?: string): Promise<string | undefined>;
  /**
   * A bearer header with the session's token of every scope, renewed before it ages, and asked for
   * again after a token of another scope: a recording is read as if each request used the last token.
   */
  withToken(): Promise<Record<string, string>>;
  /** A token of `scope` alone, asked for again when the session's tokens are short-lived. */
  scoped(scope: string, teaches: string): Promise<string | undefined>;
  /** What the session found on its way: the user and account it pays from, pages, transfers made. */
  readonly found: Found;
  /** The scopes the session asks for, comma-separated. */
  readonly allScopes: string;
}

export function createTeacher(deps: {
  readonly api: ApiClient;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly ids: TargetIds;
  readonly budget: number;
  readonly scopes: readonly string[];
}): Teacher {
  const steps: TaughtStep[] = [];
  const tag = randomBytes(4).toString('hex');
  let references = 0;
  const held = { token: '', issuedAt: 0, lifetimeMs: 0, lastScope: '' };
  const single = new Map<string, string>();
  const allScopes = deps.scopes.join(',');
  const teacher: Teacher = {
    tag,
    ids: deps.ids,
    clientId: deps.clientId,
    clientSecret: deps.clientSecret,
    steps,
    allScopes,
    found: {},
    remaining: () => deps.budget - steps.length,
    reference: () => `pacu-teach-${tag}-${++references}`,
    async send(teaches, request) {
      if (steps.length >= deps.budget) throw new BudgetSpent();
      const response = await deps.api.send(request);
      steps.push({ teaches, method: request.method, path: request.path, status: response.status });
      return response;
    },
    async tokenOf(teaches, scope, secret = deps.clientSecret) {
      const asked = Date.now();
      const response = await teacher.send(teaches, {
        method: 'POST',
        path: pathOf('getAccessToken'),
        headers: { ...FORM, ...basic(deps.clientId, secret) },
        // The comma as clients and the proxy guide's curl send it, not percent-encoded.
        body: `grant_type=client_credentials&scope=${scope}`,
      });
      const issued = dataOf(response)?.access_token;
      if (typeof issued !== 'string') return undefined;
      held.lastScope = scope;
      if (scope === allScopes) {
        const lifetime = Number(dataOf(response)?.expires_in_seconds);
        held.lifetimeMs = (Number.isFinite(lifetime) && lifetime > 0 ? lifetime : 3600) * 1000;
        held.token = issued;
        held.issuedAt = asked;
      }
      return issued;
    },
    async withToken() {
      const age = Date.now() - held.issuedAt;
      // A loaded host can pause for a second between a short token and its use: renew early.
      const share = held.lifetimeMs <= SHORT_LIFETIME_MS ? 4 : 2;
      if (held.token === '' || held.lastScope !== allScopes || age > held.lifetimeMs / share)
        await teacher.tokenOf('a token of every scope, renewed', allScopes);
      return bearer(held.token);
    },
    async scoped(scope, teaches) {
      const known = single.get(scope);
      if (known !== undefined && held.lastScope === scope && held.lifetimeMs > SHORT_LIFETIME_MS)
        return known;
      const issued = await teacher.tokenOf(teaches, scope);
      if (issued !== undefined) single.set(scope, issued);
      return issued;
    },
  };
  return teacher;
}
