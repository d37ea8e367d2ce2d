import type { OperationId } from '../../../spec/index.ts';
import { describeIdForm, type IdForm, idFormOf } from './id-form.ts';
import type { ReportDraft } from './learned-report.ts';
import { moneyFormOf, moneyTokens } from './money-form.ts';
import { dataOf, entryOf, type Samples } from './samples.ts';
import { describeTimestampForm, isUtcTimestamp, timestampFormOf } from './timestamp-form.ts';

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
