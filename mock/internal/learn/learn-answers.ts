import { OPERATION_IDS, type OperationId, type Spec } from '../../../spec/index.ts';
import type { AnswerHeader } from '../behaviour.ts';
import { agreed } from './agreement.ts';
import type { IdForm } from './id-form.ts';
import { learnForms } from './learn-forms.ts';
import { learnHeaders } from './learn-headers.ts';
import type { ReportDraft } from './learned-report.ts';
import type { MoneyForm } from './money-form.ts';
import { dataOf, entryOf, headerOf, type Samples } from './samples.ts';
import type { TimestampForm } from './timestamp-form.ts';

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
  /** Timestamp forms per record kind (`usdTransfer.ACH`), where two samples or more agree. */
  readonly timestamps: ReadonlyMap<string, TimestampForm>;
  /** Id forms by the kind pacu names them with (`txn`, `wpo`, `acct`, `ptc`). */
  readonly ids: ReadonlyMap<string, IdForm>;
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
