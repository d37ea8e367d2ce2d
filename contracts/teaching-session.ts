import { basic, createApiClient, DEFAULT_SCOPES, type TargetIds } from '../suites/index.ts';
import { teachAccess, teachPayments } from './teaching-basics.ts';
import { pathOf } from './teaching-bodies.ts';
import { teachBounds } from './teaching-bounds.ts';
import { BudgetSpent, createTeacher, type TaughtStep, type Teacher } from './teaching-context.ts';
import { teachFollow } from './teaching-follow.ts';
import { teachIds } from './teaching-ids.ts';
import { teachKinds } from './teaching-kinds.ts';
import { teachPaging, teachPathVariants } from './teaching-paging.ts';
import { teachScopes } from './teaching-scopes.ts';

export type { TaughtStep } from './teaching-context.ts';

export interface TeachingSessionOptions {
  /** Where to send the session: a `pacu proxy` in front of the sandbox, so it is recorded. */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Records no operation creates, read when given (cards, push-to-card); `accountId` is the funds source. */
  readonly ids?: TargetIds;
  /** Sent with every request (a sandbox's API key). */
  readonly headers?: Readonly<Record<string, string>>;
  /** @default 10000 */
  readonly timeoutMs?: number;
  /** Requests at most, `follow` reads included. @default TEACHING_DEFAULTS.budget (150; 200 with `followMs`) */
  readonly budget?: number;
  /** Read each transfer made again until its status is final or this many ms are over. @default 0 (no follow) */
  readonly followMs?: number;
}

export const TEACHING_DEFAULTS = {
  budget: 150,
  budgetWithFollow: 200,
  followMs: 0,
} as const;

/** What the session sent, and what it left out for its budget. */
export interface TeachingOutcome {
  readonly steps: readonly TaughtStep[];
  /** Phases the budget cut short or left out, by what they teach. */
  readonly skipped: readonly string[];
  readonly budget: number;
  /** With `followMs`: transfers followed, and how many reached a final status in time. */
  readonly follow?: { readonly followed: number; readonly finished: number; readonly ms: number };
}

/** The session's phases, most needed first: the budget cuts from the end. */
const PHASES: ReadonlyArray<readonly [string, (teacher: Teacher) => Promise<void>]> = [
  ['the payment records and their refusals', teachPayments],
  ['each kind of transfer and account', teachKinds],
  ['the scope each operation needs, and which need a token', teachScopes],
  ['the amount bounds of each payment type', teachBounds],
  ['the limits of paging', teachPaging],
  ['path variants (a trailing slash, another case)', teachPathVariants],
  ['a missing and an unknown value of each identifier', teachIds],
];

/**
 * The requests that teach `pacu mock --from-recording` a sandbox's choices, for a team with no
 * client yet: the happy path, then what a client goes wrong on (bounds, scopes, paging, paths,
 * identifiers), one request at a time, waiting out 429 and 503 as `pacu check` does, within
 * `budget` (docs/decisions/143, 175). Send it through `pacu proxy --record`, as `pacu record` does.
 *
 * @example
 * const { steps } = await runTeachingSession({ baseUrl: proxy.url, clientId, clientSecret });
 */
export async function runTeachingSession(options: TeachingSessionOptions): Promise<TeachingOutcome> {
  const followMs = options.followMs ?? TEACHING_DEFAULTS.followMs;
  const budget =
    options.budget ?? (followMs > 0 ? TEACHING_DEFAULTS.budgetWithFollow : TEACHING_DEFAULTS.budget);
  const api = createApiClient({
    baseUrl: options.baseUrl,
    connections: 1,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  // One request is kept back: the session ends on a token of every scope, as a client's next request has.
  const teacher = createTeacher({
    api,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    ids: options.ids ?? {},
    budget: budget - 1,
    scopes: DEFAULT_SCOPES,
  });
  const skipped: string[] = [];
  const run = async (name: string, phase: () => Promise<void>): Promise<void> => {
    if (teacher.remaining() <= 0) {
      skipped.push(name);
      return;
    }
    try {
      await phase();
    } catch (error) {
      if (!(error instanceof BudgetSpent)) throw error;
      skipped.push(`${name} (cut short)`);
    }
  };
  try {
    await run('tokens, the user list and the reads', () => teachAccess(teacher, options.baseUrl));
    for (const [name, phase] of PHASES) await run(name, () => phase(teacher));
    let follow: TeachingOutcome['follow'];
    if (followMs > 0)
      await run('the lifecycle of the transfers made (--follow)', async () => {
        follow = { ...(await teachFollow(teacher, followMs)), ms: followMs };
      });
    const steps = teacher.steps;
    const last = await api.send({
      method: 'POST',
      path: pathOf('getAccessToken'),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...basic(options.clientId, options.clientSecret),
      },
      body: `grant_type=client_credentials&scope=${teacher.allScopes}`,
    });
    steps.push({
      teaches: 'a token of every scope again',
      method: 'POST',
      path: pathOf('getAccessToken'),
      status: last.status,
    });
    return { steps, skipped, budget, ...(follow ? { follow } : {}) };
  } finally {
    await api.close();
  }
}
