import type { CheckId } from '../checks.ts';
import type { Origin } from '../glossary.ts';
import { type Emitter, fieldName, list, type Place } from './emitter.ts';
import { isAmount, isTransactionStatus } from './payment-rules.ts';
import { BOUNDS, effectiveFacts, type Facts, type Field, LOWER_BOUNDS } from './schema-facts.ts';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** a ⊆ b, where undefined is "any type". */
function within(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (b === undefined) return true;
  if (a === undefined) return false;
  // An integer is a number: widening integer to number keeps every old value valid.
  return a.every((type) => b.includes(type) || (type === 'integer' && b.includes('number')));
}

const without = (a: readonly unknown[], b: readonly unknown[]): unknown[] =>
  a.filter((value) => !b.some((other) => same(other, value)));

/** Whose change it is: the description's when its own facts moved on that aspect, else pacu's decision. */
function originOf(old: Field, now: Field, aspect: (facts: Facts) => unknown): Origin {
  return same(aspect(old.facts.description), aspect(now.facts.description)) ? 'decision' : 'description';
}

/** A check and its sentence: what each aspect below decides before it emits once. */
type Verdict = readonly [CheckId, string];

/**
 * Compare what one field says in both versions: type, format, enum, patterns, bounds, multipleOf
 * and whether other properties are allowed. Each aspect judges on the facts of both origins
 * together (what a strict client meets) and names the description as its origin only when the
 * description's own facts moved.
 */
export function compareFacts(old: Field, now: Field, place: Place, out: Emitter): void {
  const a = effectiveFacts(old);
  const b = effectiveFacts(now);
  const request = place.side === 'request';
  const { subject, who } = place;
  const name = fieldName(old.field, place.root);
  const verb = request ? 'send' : 'read';
  const side = request ? 'request' : 'response';
  const emit = (
    aspect: (facts: Facts) => unknown,
    [check, message]: Verdict,
    before: unknown,
    after: unknown,
  ): void =>
    out.emit(check, originOf(old, now, aspect), place, {
      path: now.path,
      field: old.field,
      message,
      before,
      after,
    });

  if (!same(a.types, b.types)) {
    const shown = `${a.types?.join('|') ?? 'any'} to ${b.types?.join('|') ?? 'any'}`;
    const verdict: Verdict = isAmount(old)
      ? [
          'amount-type-changed',
          `the type of the amount ${name} in ${subject} changes from ${shown}: ${who} that compute with it break`,
        ]
      : request && within(a.types, b.types)
        ? ['request-property-type-generalized', `${subject} takes ${name} as ${shown}`]
        : !request && within(b.types, a.types)
          ? ['response-property-type-narrowed', `${subject} narrows ${name} from ${shown}`]
          : [
              `${side}-property-type-changed`,
              `${subject} changes the type of ${name} from ${shown}: ${who} that ${verb} it break`,
            ];
    emit((facts) => facts.types, verdict, a.types, b.types);
  }

  if (a.format !== b.format) {
    const shown = `${a.format ?? 'none'} to ${b.format ?? 'none'}`;
    const verdict: Verdict = isAmount(old)
      ? [
          'amount-type-changed',
          `the format of the amount ${name} in ${subject} changes from ${shown}: ${who} that compute with it break`,
        ]
      : request && b.format === undefined
        ? ['request-property-format-removed', `${subject} no longer asks ${name} to be ${a.format}`]
        : !request && a.format === undefined
          ? ['response-property-format-added', `${subject} now says ${name} is ${b.format}`]
          : [
              `${side}-property-format-changed`,
              `${subject} changes the format of ${name} from ${shown}: ${who} that ${verb} it may break`,
            ];
    emit((facts) => facts.format, verdict, a.format, b.format);
  }

  compareEnums(a, b, old, now, place, out);

  if (!same(a.patterns, b.patterns)) {
    const shown = b.patterns.map((p) => `/${p}/`).join(' and ');
    const verdict: Verdict = !request
      ? [
          'response-property-pattern-changed',
          `${subject} changes the pattern of ${name} to ${shown || 'none'}`,
        ]
      : b.patterns.length === 0
        ? ['request-property-pattern-removed', `${subject} no longer checks ${name} against a pattern`]
        : [
            a.patterns.length === 0 ? 'request-property-pattern-added' : 'request-property-pattern-changed',
            `${subject} now checks ${name} against ${shown}: ${who} whose values do not match are refused`,
          ];
    emit((facts) => [...facts.patterns].sort(), verdict, a.patterns, b.patterns);
  }

  for (const bound of BOUNDS) {
    const from = a.bounds[bound];
    const to = b.bounds[bound];
    if (from === to) continue;
    const tighter =
      from === undefined || (to !== undefined && (LOWER_BOUNDS.has(bound) ? to > from : to < from));
    const shown = `${bound} ${from ?? 'none'} to ${to ?? 'none'}`;
    const verdict: Verdict = request
      ? from === undefined
        ? [
            'request-property-bound-set',
            `${subject} sets ${bound} ${to} on ${name}: ${who} that send values past it are refused`,
          ]
        : tighter
          ? [
              'request-property-bound-tightened',
              `${subject} tightens ${name} (${shown}): ${who} that send values past it are refused`,
            ]
          : ['request-property-bound-relaxed', `${subject} relaxes ${name} (${shown})`]
      : tighter
        ? ['response-property-bound-tightened', `${subject} tightens ${name} (${shown})`]
        : [
            'response-property-bound-relaxed',
            `${subject} relaxes ${name} (${shown}): ${who} that rely on the old limit may break`,
          ];
    emit((facts) => facts.bounds[bound], verdict, from, to);
  }

  if (a.multipleOf !== b.multipleOf)
    emit(
      (facts) => facts.multipleOf,
      [
        'property-multiple-of-changed',
        `${subject} changes multipleOf of ${name} from ${a.multipleOf ?? 'none'} to ${b.multipleOf ?? 'none'}`,
      ],
      a.multipleOf,
      b.multipleOf,
    );

  if (a.open !== b.open) {
    const verdict: Verdict = request
      ? b.open
        ? ['request-property-opened', `${subject} allows other properties in ${name}`]
        : [
            'request-property-closed',
            `${subject} allows no other properties in ${name}: ${who} that send extra fields are refused`,
          ]
      : b.open
        ? [
            'response-property-opened',
            `${subject} may carry other properties in ${name}: ${who} that validate strictly break`,
          ]
        : ['response-property-closed', `${subject} allows no other properties in ${name}`];
    emit((facts) => facts.open, verdict, a.open, b.open);
  }
}

/** Enum values, judged both ways round, with `transaction_status` told as the payment status it is. */
function compareEnums(a: Facts, b: Facts, old: Field, now: Field, place: Place, out: Emitter): void {
  if (same(a.enum, b.enum)) return;
  const request = place.side === 'request';
  const { subject, who } = place;
  const name = fieldName(old.field, place.root);
  const origin = originOf(old, now, (facts) => facts.enum);
  const emit = ([check, message]: Verdict, before: unknown, after: unknown): void =>
    out.emit(check, origin, place, { path: now.path, field: old.field, message, before, after });
  if (a.enum === undefined || b.enum === undefined) {
    const became = a.enum === undefined;
    const values = list((became ? b.enum : a.enum) ?? []);
    if (became)
      emit(
        request
          ? [
              'request-property-became-enum',
              `${subject} now takes only ${values} for ${name}: ${who} that send other values are refused`,
            ]
          : ['response-property-became-enum', `${subject} now says ${name} is one of ${values}`],
        a.enum,
        b.enum,
      );
    else
      emit(
        request
          ? ['request-property-enum-dropped', `${subject} takes any value for ${name}`]
          : [
              'response-property-enum-dropped',
              `${subject} no longer limits ${name} to ${values}: ${who} with an exhaustive switch may meet values they do not handle`,
            ],
        a.enum,
        b.enum,
      );
    return;
  }
  const removed = without(a.enum, b.enum);
  const added = without(b.enum, a.enum);
  const status = isTransactionStatus(old);
  if (removed.length > 0)
    emit(
      status
        ? [
            'transaction-status-removed',
            `${subject} no longer has the transaction status ${list(removed)}: ${who} waiting for it never see the payment settle that way`,
          ]
        : request
          ? [
              'request-property-enum-value-removed',
              `${subject} no longer takes ${list(removed)} for ${name}: ${who} that send it are refused`,
            ]
          : [
              'response-property-enum-value-removed',
              `${subject} no longer sends ${list(removed)} for ${name}`,
            ],
      removed,
      b.enum,
    );
  if (added.length > 0)
    emit(
      status
        ? [
            'transaction-status-added',
            `${subject} gains the transaction status ${list(added)}: ${who} with an exhaustive switch on ${name} meet a status they do not handle`,
          ]
        : request
          ? ['request-property-enum-value-added', `${subject} also takes ${list(added)} for ${name}`]
          : [
              'response-property-enum-value-added',
              `${subject} may send ${list(added)} for ${name}: ${who} with an exhaustive switch meet a value they do not handle`,
            ],
      a.enum,
      added,
    );
}
