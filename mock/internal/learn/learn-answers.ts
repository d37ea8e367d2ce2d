import type { RoutedExchange } from '../../../http/index.ts';
import { OPERATION_IDS, type OperationId, type Spec } from '../../../spec/index.ts';
import type { AnswerHeader } from '../behaviour.ts';
import { describeIdForm, type IdForm, idFormOf, idMaker } from './id-form.ts';
import type { ReportDraft } from './learned-report.ts';
import { type MoneyForm, moneyFormOf, moneyTokens } from './money-form.ts';
import { dataOf, entryOf, headerOf, type Samples } from './samples.ts';
import {
  describeTimestampForm,
  isUtcTimestamp,
  type TimestampForm,
  timestampFormOf,
} from './timestamp-form.ts';

/** What a sandbox's answers show of its transport and its forms. */
export interface AnswerFacts {
  readonly contentType: string | undefined;
  readonly headers: readonly AnswerHeader[];
  readonly tokenType: string | undefined;
  readonly tokenLifetimeSeconds: number | undefined;
  readonly messages: Partial<Record<OperationId, string>>;
  readonly replay: {
    readonly message: string | undefined;
    readonly headers: Readonly<Record<string, string>>;
  };
  readonly money: MoneyForm | undefined;
  readonly timestamps: TimestampForm | undefined;
  /** Id forms by the kind pacu names them with (`txn`, `wpo`, `acct`, `ptc`). */
  readonly ids: ReadonlyMap<string, IdForm>;
}

/** Headers that are the connection's or the answer's own, never a sandbox's habit to copy. */
const OWN_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'content-type',
  'www-authenticate',
  'set-cookie',
  'allow',
  'etag',
  'last-modified',
  'age',
  'retry-after',
]);

/** The value most samples have, with the samples that have it. */
function mostCommon<T>(pairs: ReadonlyArray<readonly [T, number]>): [T, number[]] | undefined {
  const counts = new Map<string, { value: T; entries: number[] }>();
  for (const [value, entry] of pairs) {
    const key = JSON.stringify(value);
    const seen = counts.get(key) ?? { value, entries: [] };
    seen.entries.push(entry);
    counts.set(key, seen);
  }
  const [best] = [...counts.values()].sort((a, b) => b.entries.length - a.entries.length);
  return best ? [best.value, best.entries] : undefined;
}

/** One value every sample agrees on, with the samples; undefined when they disagree (noted). */
function agreed<T>(
  pairs: ReadonlyArray<readonly [T, number]>,
  report: ReportDraft,
  what: string,
): [T, number[]] | undefined {
  const found = mostCommon(pairs);
  if (!found) return undefined;
  if (found[1].length < pairs.length) {
    const others = pairs.filter(([, entry]) => !found[1].includes(entry)).map(([, entry]) => entry);
    report.unlearned(others, `${what} differs from the other answers': the most common one is learned`);
  }
  return found;
}

function learnHeaders(
  all: readonly RoutedExchange[],
  replays: readonly RoutedExchange[],
  report: ReportDraft,
) {
  const answers = all.filter((exchange) => !replays.includes(exchange));
  const names = new Set(
    answers.flatMap((exchange) => exchange.entry.response.headers.map(({ name }) => name.toLowerCase())),
  );
  const headers: AnswerHeader[] = [];
  for (const name of names) {
    if (OWN_HEADERS.has(name)) continue;
    const values = answers.map((exchange) => headerOf(exchange, name));
    if (values.some((value) => value === undefined)) continue;
    const texts = values as string[];
    const entries = answers.map(entryOf);
    if (texts.every((value) => value === texts[0])) {
      headers.push({ name, value: texts[0] as string });
      report.learned(
        `header.${name}`,
        `the ${name} header of every answer`,
        texts[0],
        JSON.stringify(texts[0]),
        entries,
      );
      continue;
    }
    const form = idFormOf(texts);
    if (form) {
      headers.push({ name, make: idMaker(form) });
      report.learned(
        `header.${name}`,
        `the ${name} header of every answer`,
        describeIdForm(form),
        `a fresh ${describeIdForm(form)}`,
        entries,
      );
    }
  }
  const replayHeaders: Record<string, string> = {};
  for (const replay of replays)
    for (const { name, value } of replay.entry.response.headers) {
      const lower = name.toLowerCase();
      if (OWN_HEADERS.has(lower) || names.has(lower)) continue;
      replayHeaders[lower] = value;
    }
  if (Object.keys(replayHeaders).length > 0)
    report.learned(
      'replay.headers',
      'headers on the answer to an exact replay of a transfer',
      replayHeaders,
      Object.entries(replayHeaders)
        .map(([name, value]) => `${name}: ${value}`)
        .join(', '),
      replays.map(entryOf),
    );
  else report.kept('replay.headers', 'headers on the answer to an exact replay of a transfer', {}, 'none');
  return { headers, replayHeaders };
}

function learnToken(samples: Samples, report: ReportDraft) {
  const tokens = samples.success.get('getAccessToken') ?? [];
  const pairs = <T>(field: string, test: (value: unknown) => value is T) =>
    tokens.flatMap((exchange) => {
      const value = dataOf(exchange)?.[field];
      return test(value) ? [[value, entryOf(exchange)] as const] : [];
    });
  const lifetime = agreed(
    pairs('expires_in_seconds', Number.isInteger as (v: unknown) => v is number),
    report,
    'expires_in_seconds',
  );
  const type = agreed(
    pairs('token_type', (value): value is string => typeof value === 'string'),
    report,
    'token_type',
  );
  return { lifetime, type };
}

function learnMessages(samples: Samples, report: ReportDraft) {
  const messages: Partial<Record<OperationId, string>> = {};
  for (const id of OPERATION_IDS) {
    const answers = samples.success.get(id) ?? [];
    const found = agreed(
      answers.flatMap((exchange) => {
        const message = (exchange.responseJson as { message?: unknown }).message;
        return typeof message === 'string' ? [[message, entryOf(exchange)] as const] : [];
      }),
      report,
      `the message of ${id}`,
    );
    if (found) {
      messages[id] = found[0];
      report.learned(
        `message.${id}`,
        `the message of ${id}'s answer`,
        found[0],
        JSON.stringify(found[0]),
        found[1],
      );
    } else report.kept(`message.${id}`, `the message of ${id}'s answer`, undefined, "pacu's");
  }
  const replayed = agreed(
    samples.replays.flatMap((exchange) => {
      const message = (exchange.responseJson as { message?: unknown }).message;
      return typeof message === 'string' ? [[message, entryOf(exchange)] as const] : [];
    }),
    report,
    'the message of an exact replay',
  );
  if (replayed)
    report.learned(
      'replay.message',
      'the message of the answer to an exact replay of a transfer',
      replayed[0],
      JSON.stringify(replayed[0]),
      replayed[1],
    );
  else
    report.kept(
      'replay.message',
      'the message of the answer to an exact replay of a transfer',
      undefined,
      "pacu's",
    );
  return { messages, replayMessage: replayed?.[0] };
}

/** The id kinds pacu makes, and where a recording shows the sandbox's: the operation and field. */
const ID_SOURCES: ReadonlyArray<readonly [string, OperationId, string, string]> = [
  ['txn', 'usdTransfer', 'transaction_id', 'the id of a new USD transfer'],
  ['wpo', 'walletPayout', 'transaction_id', 'the id of a new wallet payout'],
  ['acct', 'createAccount', 'account_id', 'the id of a new account'],
  ['ptc', 'getPushToCardPayment', 'transaction_id', 'the id of a push-to-card payment'],
];

function learnForms(
  samples: Samples,
  keys: { money: ReadonlySet<string>; timestamps: ReadonlySet<string> },
  report: ReportDraft,
) {
  const answers = [...samples.success.values()].flat();
  const moneyPairs = answers.flatMap((exchange) =>
    moneyTokens(exchange.entry.response.content.text ?? '', [...keys.money]).map(
      (token) => [token, entryOf(exchange)] as const,
    ),
  );
  const money = moneyFormOf(moneyPairs.map(([token]) => token));
  const moneyAbout = 'how amounts are written in the JSON text';
  if (money)
    report.learned(
      'money',
      moneyAbout,
      money,
      money === 'two-decimals' ? 'two decimals (125.50)' : 'the shortest number (125.5)',
      moneyPairs.map(([, entry]) => entry),
    );
  else report.kept('money', moneyAbout, 'shortest', 'the shortest number (125.5)');

  const stampPairs = answers.flatMap((exchange) =>
    Object.entries(dataOf(exchange) ?? {}).flatMap(([key, value]) =>
      keys.timestamps.has(key) && isUtcTimestamp(value) ? [[value, entryOf(exchange)] as const] : [],
    ),
  );
  const timestamps = timestampFormOf(stampPairs.map(([value]) => value));
  const stampAbout = 'how timestamps are written (ISO 8601 UTC)';
  if (timestamps)
    report.learned(
      'timestamps',
      stampAbout,
      timestamps,
      describeTimestampForm(timestamps),
      stampPairs.map(([, entry]) => entry),
    );
  else {
    if (stampPairs.length > 0)
      report.unlearned(
        stampPairs.map(([, entry]) => entry),
        'timestamps are written in more than one form: pacu writes its own',
      );
    report.kept('timestamps', stampAbout, { offset: 'Z', fraction: 0 }, 'Z, whole seconds');
  }

  const ids = new Map<string, IdForm>();
  for (const [kind, operation, field, about] of ID_SOURCES) {
    const pairs = (samples.success.get(operation) ?? []).flatMap((exchange) => {
      const value = dataOf(exchange)?.[field];
      return typeof value === 'string' ? [[value, entryOf(exchange)] as const] : [];
    });
    const form = idFormOf(pairs.map(([value]) => value));
    if (form) {
      ids.set(kind, form);
      report.learned(
        `id.${kind}`,
        about,
        form,
        describeIdForm(form),
        pairs.map(([, entry]) => entry),
      );
    } else {
      if (pairs.length > 0)
        report.unlearned(
          pairs.map(([, entry]) => entry),
          `${about}: the recorded ones share no one form`,
        );
      report.kept(
        `id.${kind}`,
        about,
        { kind: 'token', prefix: `${kind}_`, alphabet: 'hex', length: 16 },
        `${kind}_ + 16 hex`,
      );
    }
  }
  return { money, timestamps, ids };
}

/**
 * What the recorded answers show of how the sandbox writes them: content type, headers, the token's
 * lifetime and type, messages, amounts, timestamps and ids. Each goes in the report, learned or
 * left at pacu's.
 */
export function learnAnswers(
  spec: Spec,
  samples: Samples,
  keys: { money: ReadonlySet<string>; timestamps: ReadonlySet<string> },
  report: ReportDraft,
): AnswerFacts {
  const typed = samples.all.flatMap((exchange) => {
    const type = headerOf(exchange, 'content-type');
    return exchange.operation && type ? [[type, entryOf(exchange)] as const] : [];
  });
  const contentType = agreed(typed, report, 'the content type');
  const typeAbout = 'the Content-Type of every answer';
  if (contentType) report.learned('contentType', typeAbout, contentType[0], contentType[0], contentType[1]);
  else
    report.kept(
      'contentType',
      typeAbout,
      'application/json; charset=utf-8',
      'application/json; charset=utf-8',
    );
  const { headers, replayHeaders } = learnHeaders(samples.all, samples.replays, report);
  const token = learnToken(samples, report);
  const lifetimeAbout = 'how long an access token lives (expires_in_seconds)';
  if (token.lifetime)
    report.learned(
      'token.lifetime',
      lifetimeAbout,
      token.lifetime[0],
      `${token.lifetime[0]} s`,
      token.lifetime[1],
    );
  else
    report.kept('token.lifetime', lifetimeAbout, spec.tokenLifetimeSeconds, `${spec.tokenLifetimeSeconds} s`);
  if (token.type)
    report.learned(
      'token.type',
      'the token_type of an access token',
      token.type[0],
      token.type[0],
      token.type[1],
    );
  else report.kept('token.type', 'the token_type of an access token', 'Bearer', 'Bearer');
  const { messages, replayMessage } = learnMessages(samples, report);
  const forms = learnForms(samples, keys, report);
  return {
    contentType: contentType?.[0],
    headers,
    tokenType: token.type?.[0],
    tokenLifetimeSeconds: token.lifetime?.[0],
    messages,
    replay: { message: replayMessage, headers: replayHeaders },
    ...forms,
  };
}
