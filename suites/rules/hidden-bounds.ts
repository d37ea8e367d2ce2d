import { documentedSchema, type JSONSchema7 } from '../../spec/index.ts';
import { mergeAllOf } from '../inputs/schema-arbitrary.ts';
import { isSuccess } from '../judge/envelope-checks.ts';
import type { LearnedBound } from '../report/report.ts';
import type { ApiRequest } from '../target/api-request.ts';
import { boundText, edge, limitOf } from './bound-limit.ts';
import { type AnyOperation, idSlots, isTokenEndpoint, propertiesOf } from './read-operation.ts';
import type { RuleKit } from './rule.ts';

// "Rate limits, amount bounds, size limits and time-outs: not shown." A provider may refuse an
// in-schema value of a field the description bounds nowhere: that is a bound to report, not a failure,
// when the same request with a central value of the field is taken. A provider that refuses the
// central values too refuses everything: that stays a failure. (docs/decisions/171)

type Body = Record<string, unknown>;
type Kit = RuleKit<'client' | 'token' | 'ids'>;

/** Keywords that bound a value: a field whose documented schema has one is bounded by a sentence. */
const BOUNDS = [
  'enum',
  'const',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'multipleOf',
];

const documentedFields = (operation: AnyOperation): [string, JSONSchema7][] =>
  Object.entries(propertiesOf(documentedSchema(operation.requestBody?.schema as JSONSchema7) ?? {})).map(
    ([name, schema]) => [name, mergeAllOf(schema)],
  );

/** Strings and numbers the description bounds nowhere: no stated bound, no id (it names a record), no reference (a key). */
function unboundedFields(operation: AnyOperation): string[] {
  const ids = new Set(idSlots(operation).map((slot) => slot.name));
  return documentedFields(operation)
    .filter(([name, schema]) => {
      const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
      if (!['string', 'number', 'integer'].includes(String(type)) || ids.has(name) || name === 'reference')
        return false;
      return !BOUNDS.some((keyword) => keyword in schema);
    })
    .map(([name]) => name);
}

/** The listed values of each field that has them (a payment type): a bound may hold for one value only. */
const listedFields = (operation: AnyOperation): [string, string[]][] =>
  documentedFields(operation).flatMap(([name, schema]) => {
    const values = (schema.enum ?? []).filter((value): value is string => typeof value === 'string');
    return values.length > 1 ? [[name, values]] : [];
  });

const isForm = (operation: AnyOperation): boolean =>
  operation.requestBody?.mediaType === 'application/x-www-form-urlencoded';

/** The fields a request carries in its body, JSON or a form. */
function bodyOf(operation: AnyOperation, request: ApiRequest): Body | undefined {
  if (!operation.requestBody || request.body === undefined) return undefined;
  if (isForm(operation)) return Object.fromEntries(new URLSearchParams(request.body));
  try {
    const parsed: unknown = JSON.parse(request.body);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Body) : undefined;
  } catch {
    return undefined;
  }
}

const withBody = (operation: AnyOperation, request: ApiRequest, body: Body): ApiRequest => ({
  ...request,
  body: isForm(operation)
    ? new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString()
    : JSON.stringify(body),
});

/** Central values of a field: its value in the operation's example (the scopes the client holds, for the token's). */
function centralValues(kit: Kit, field: string): unknown[] {
  if (isTokenEndpoint(kit.operationSpec) && field === 'scope') return [kit.config.scopes.join(',')];
  const [example] = Object.values(kit.operationSpec.requestBody?.examples ?? {}) as (Body | undefined)[];
  const value = example?.[field];
  return value === undefined ? [] : typeof value === 'number' ? [value, 10] : [value];
}

/**
 * Why a valid request was refused with 400, if a bound the description shows nowhere explains it:
 * the bound learned (and kept in the run's ledger), or `refusesCentral` when the same request with
 * central values of every unbounded field was refused too (a provider that refuses everything).
 */
export async function explainRefusal(
  kit: Kit,
  request: ApiRequest,
  status: number,
  message: string,
): Promise<{ readonly bound: LearnedBound } | { readonly refusesCentral: string } | undefined> {
  const operation = kit.operationSpec;
  const sent = bodyOf(operation, request);
  if (status !== 400 || !sent) return undefined;
  return kit.bounds.alone(kit.operation, async () => {
    const known = kit.bounds.covering(kit.operation, sent);
    if (known) return { bound: known };
    const fields = unboundedFields(operation).filter((field) => sent[field] !== undefined);
    // The fields the refusal names are tried first.
    fields.sort((a, b) => Number(message.includes(b)) - Number(message.includes(a)));
    if (kit.bounds.refusesCentral(kit.operation) || fields.length === 0) return undefined;
    const takes = async (body: Body): Promise<boolean> => {
      const fresh =
        typeof body.reference === 'string' ? { ...body, reference: kit.referenceFor(body) } : body;
      return isSuccess(await kit.send(withBody(operation, request, fresh)));
    };
    const centrals: Body = Object.fromEntries(
      fields.flatMap((field) =>
        centralValues(kit, field)
          .slice(0, 1)
          .map((value) => [field, value]),
      ),
    );
    /** The bound on `field` of a `base` refused for it alone (taken with the field's `central` value). */
    const learn = async (base: Body, field: string, central: unknown): Promise<LearnedBound> => {
      const limit = await limitOf(base[field], central, (value) => takes({ ...base, [field]: value }));
      // Whether it is one payment type's: with another listed value (the other fields central, so
      // another type's own bound on them cannot answer instead), the value just past the limit taken,
      // or the limit itself refused (that type's bound is tighter).
      const [past, inside] = [edge(limit, base[field], 1), edge(limit, base[field], 0)];
      const calm = { ...base, ...centrals };
      const when: Record<string, string> = {};
      for (const [listed, values] of listedFields(operation)) {
        const value = base[listed];
        if (typeof value !== 'string') continue;
        for (const other of values.filter((candidate) => candidate !== value)) {
          const differs =
            (await takes({ ...calm, [field]: past, [listed]: other })) ||
            (limit.kind !== 'value' && !(await takes({ ...calm, [field]: inside, [listed]: other })));
          if (differs) {
            when[listed] = value;
            break;
          }
        }
      }
      const draft = { operation: kit.operation, field, when, ...limit };
      const bound = { ...draft, text: boundText(draft) };
      kit.bounds.add(bound);
      return bound;
    };
    for (const field of fields)
      for (const central of centralValues(kit, field))
        if (central !== sent[field] && (await takes({ ...sent, [field]: central })))
          return { bound: await learn(sent, field, central) };
    // No one field explains it: several may be out of bounds at once, or none can be.
    const all = { ...sent, ...centrals };
    if (await takes(all)) {
      const found: LearnedBound[] = [];
      for (const field of Object.keys(centrals)) {
        const base = { ...all, [field]: sent[field] };
        if (!(await takes(base))) found.push(await learn(base, field, centrals[field]));
      }
      const [first] = found;
      return first ? { bound: first } : undefined;
    }
    kit.bounds.markRefusesCentral(kit.operation);
    return { refusesCentral: Object.keys(centrals).join(', ') };
  });
}
