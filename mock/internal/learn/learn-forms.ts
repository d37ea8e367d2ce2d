import type { OperationId } from '../../../spec/index.ts';
import { describeIdForm, type IdForm, idFormOf } from './id-form.ts';
import type { ReportDraft } from './learned-report.ts';
import { moneyFormOf, moneyTokens } from './money-form.ts';
import { SAMPLES_FOR_A_RULE } from './record-plan.ts';
import { dataOf, entryOf, type Samples } from './samples.ts';
import {
  agreedTimestampForm,
  describeTimestampForm,
  isUtcTimestamp,
  type TimestampForm,
} from './timestamp-form.ts';

/** The id kinds pacu makes, and where a recording shows the sandbox's: the operation and field. */
const ID_SOURCES: ReadonlyArray<readonly [string, OperationId, string, string]> = [
  ['txn', 'usdTransfer', 'transaction_id', 'the id of a new USD transfer'],
  ['wpo', 'walletPayout', 'transaction_id', 'the id of a new wallet payout'],
  ['acct', 'createAccount', 'account_id', 'the id of a new account'],
  ['ptc', 'getPushToCardPayment', 'transaction_id', 'the id of a push-to-card payment'],
];

/** How the sandbox writes amounts, timestamps and the ids of the records pacu makes too. */
export function learnForms(
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
  const money =
    moneyPairs.length >= SAMPLES_FOR_A_RULE ? moneyFormOf(moneyPairs.map(([token]) => token)) : undefined;
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

  const timestamps = learnStamps(samples, keys.timestamps, report);

  const ids = new Map<string, IdForm>();
  for (const [kind, operation, field, about] of ID_SOURCES) {
    const pairs = (samples.success.get(operation) ?? []).flatMap((exchange) => {
      const value = dataOf(exchange)?.[field];
      return typeof value === 'string' ? [[value, entryOf(exchange)] as const] : [];
    });
    // One sample makes no rule: a lone id might be any form.
    const form = pairs.length >= SAMPLES_FOR_A_RULE ? idFormOf(pairs.map(([value]) => value)) : undefined;
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
      const why =
        pairs.length === 0
          ? ''
          : pairs.length < SAMPLES_FOR_A_RULE
            ? ' (1 recorded: too few)'
            : ' (the recorded ones share no one form)';
      report.kept(
        `id.${kind}`,
        about,
        { kind: 'token', prefix: `${kind}_`, alphabet: 'hex', length: 16 },
        `${kind}_ + 16 hex${why}`,
        pairs.map(([, entry]) => entry),
      );
    }
  }
  return { money, timestamps, ids };
}

/**
 * How each record kind writes its timestamps (`usdTransfer.ACH`, `getCardTransaction`), from two
 * samples or more that agree; what one kind shows is never another's. The `timestamps` choice sums
 * them up.
 */
function learnStamps(
  samples: Samples,
  keys: ReadonlySet<string>,
  report: ReportDraft,
): Map<string, TimestampForm> {
  const kinds = new Map<string, Array<readonly [string, number]>>();
  // The same record read again is one sample: a record's timestamps are written once.
  const seen = new Set<string>();
  for (const [operation, answers] of samples.success)
    for (const exchange of answers) {
      const text = JSON.stringify(dataOf(exchange));
      if (seen.has(text)) continue;
      seen.add(text);
      const type = (exchange.requestJson as { transfer_type?: unknown } | undefined)?.transfer_type;
      const kind = operation === 'usdTransfer' ? `${operation}.${String(type)}` : operation;
      for (const [key, value] of Object.entries(dataOf(exchange) ?? {}))
        if (keys.has(key) && isUtcTimestamp(value))
          kinds.set(kind, [...(kinds.get(kind) ?? []), [value, entryOf(exchange)] as const]);
    }
  const forms = new Map<string, TimestampForm>();
  for (const [kind, pairs] of kinds) {
    const about = `how ${kind} records write timestamps (ISO 8601 UTC)`;
    const entries = pairs.map(([, entry]) => entry);
    const { form, why } = agreedTimestampForm(pairs.map(([value]) => value));
    if (form) {
      forms.set(kind, form);
      report.learned(`timestamps.${kind}`, about, form, describeTimestampForm(form), entries);
    } else
      report.kept(
        `timestamps.${kind}`,
        about,
        undefined,
        `${why}; left free (pacu writes Z, whole seconds)`,
        entries,
      );
  }
  const learned = [...forms].map(([kind, form]) => `${kind} ${describeTimestampForm(form)}`);
  const about = 'how timestamps are written (ISO 8601 UTC), per record kind';
  if (learned.length > 0)
    report.learned(
      'timestamps',
      about,
      Object.fromEntries(forms),
      learned.join('; '),
      [...kinds.values()].flat().map(([, e]) => e),
    );
  else report.kept('timestamps', about, { offset: 'Z', fraction: 0 }, 'Z, whole seconds');
  return forms;
}
