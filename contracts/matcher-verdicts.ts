import { compileSchema } from '../spec/index.ts';
import { datePatternRegex, ISO_TIMESTAMP } from './pact-date-format.ts';
import type { PactMatcher } from './pact-file.ts';
import { pactRegexMatches } from './pact-regex.ts';
import { type SchemaFacts, schemaAt } from './schema-at-path.ts';
import { describeValue } from './spec-finding.ts';

/** Whether a matcher holds for every value the spec allows at its place, and why. */
export interface MatcherVerdict {
  readonly compatible: boolean;
  readonly reason: string;
  /** A value the spec allows there that Pact's verifier rejects under this matcher. */
  readonly counterexample?: unknown;
}

/** What the spec and the pact say at the matcher's place. */
export interface MatcherPlace {
  readonly facts: SchemaFacts;
  /** The spec's example values there. */
  readonly examples: readonly unknown[];
  /** The pact's own expected values there (the matcher's examples). */
  readonly pactValues: readonly unknown[];
  /** Whether the place is the whole body (`$`), and the spec's media type for it. */
  readonly body?: { readonly mediaType: string };
}

export const ok = (reason: string): MatcherVerdict => ({ compatible: true, reason });
export const no = (reason: string, counterexample?: unknown): MatcherVerdict => ({
  compatible: false,
  reason,
  ...(counterexample !== undefined ? { counterexample } : {}),
});

/** A value the spec allows for each JSON type it names, to show a type-demanding matcher wrong. */
const SAMPLE: Record<string, unknown> = {
  string: 'text',
  number: 1.5,
  integer: 1,
  boolean: true,
  null: null,
  array: [],
  object: {},
};
const typesText = (facts: SchemaFacts): string => facts.types.join(' or ') || 'any value';
const allowed = (facts: SchemaFacts, value: unknown): boolean =>
  facts.nodes.every((node) => compileSchema(node)(value).length === 0);
const jsonType = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : Number.isInteger(value)
        ? 'integer'
        : typeof value;

/** The spec's values worth judging a format against: its enum, or its examples. */
function specValues(place: MatcherPlace): unknown[] {
  return [...(place.facts.enum ?? place.examples)];
}

/** The first type the spec allows that is not one of `wanted`, as a counterexample. */
function otherType(facts: SchemaFacts, wanted: readonly string[]): unknown {
  const type =
    facts.types.find((candidate) => !wanted.includes(candidate)) ??
    (facts.types.length === 0 ? 'string' : undefined);
  return type === undefined ? undefined : SAMPLE[type];
}

function demandsType(facts: SchemaFacts, wanted: readonly string[], what: string): MatcherVerdict {
  const other = otherType(facts, wanted);
  // `number` admits integers; a matcher wanting a number accepts both.
  const widened = wanted.includes('number') ? [...wanted, 'integer'] : wanted;
  if (facts.types.length > 0 && facts.types.every((type) => widened.includes(type)))
    return ok(`the spec sends ${typesText(facts)} here, which ${what} accepts`);
  return no(`the spec sends ${typesText(facts)} here; ${what} rejects ${describeValue(other)}`, other);
}

function regexVerdict(matcher: PactMatcher, place: MatcherPlace): MatcherVerdict {
  const regex = String(matcher.regex ?? '');
  const own = place.pactValues.find((value) => value !== undefined && value !== null);
  // Pact matches numbers and booleans by their text, against the whole value, in Oniguruma syntax.
  if (own !== undefined && !pactRegexMatches(regex, String(own)))
    return no(
      `Pact's verifier rejects the pact's own example ${describeValue(own)} under the regex ${regex} (Oniguruma syntax, whole value): it does not compile there, or does not match the whole value`,
      own,
    );
  const rejected = specValues(place).filter(
    (value) => value !== null && typeof value !== 'object' && !pactRegexMatches(regex, String(value)),
  );
  if (rejected.length > 0)
    return no(
      `the spec ${place.facts.enum ? 'allows' : 'shows'} ${rejected.map(describeValue).join(', ')} here, which the regex ${regex} rejects in Pact's verifier`,
      rejected[0],
    );
  if (place.facts.types.some((type) => type === 'object' || type === 'array'))
    return no(`the spec sends ${typesText(place.facts)} here; a regex matches only text`, SAMPLE.object);
  return ok(
    `Pact's verifier accepts every value the spec ${place.facts.enum ? 'allows' : 'shows'} here under the regex ${regex}`,
  );
}

function dateVerdict(matcher: PactMatcher, place: MatcherPlace): MatcherVerdict {
  const typed = demandsType(place.facts, ['string'], `a ${matcher.match} matcher`);
  if (!typed.compatible) return typed;
  const format = [matcher.format, matcher[matcher.match], matcher.timestamp, matcher.date, matcher.time].find(
    (value): value is string => typeof value === 'string',
  );
  const regex = format
    ? datePatternRegex(format)
    : matcher.match === 'date' || matcher.match === 'time'
      ? undefined
      : ISO_TIMESTAMP;
  if (!regex)
    return ok(
      `not judged: pacu cannot read the ${matcher.match} pattern ${describeValue(format)}; the verifier will`,
    );
  // Forms an ISO 8601 UTC timestamp may take, kept where the spec's schema allows them.
  const probes = ['2024-06-14T10:20:00Z', '2024-06-14T10:20:00.123Z', '2024-06-14T10:20:00+00:00'];
  const candidates = [...specValues(place), ...probes.filter((value) => allowed(place.facts, value))];
  const rejected = candidates.filter((value) => typeof value === 'string' && !regex.test(value));
  return rejected.length > 0
    ? no(
        `the spec allows ${describeValue(rejected[0])} here, which the ${matcher.match} pattern ${format ?? '(ISO 8601)'} rejects`,
        rejected[0],
      )
    : ok(`every value the spec allows here fits the ${matcher.match} pattern ${format ?? '(ISO 8601)'}`);
}

function valueVerdict(matcher: PactMatcher, place: MatcherPlace): MatcherVerdict {
  const wanted = matcher.match === 'include' ? String(matcher.value ?? '') : place.pactValues[0];
  const holds = (value: unknown): boolean =>
    matcher.match === 'include'
      ? String(value).includes(String(wanted))
      : JSON.stringify(value) === JSON.stringify(wanted);
  const what =
    matcher.match === 'include' ? `to include ${describeValue(wanted)}` : `exactly ${describeValue(wanted)}`;
  if (!place.facts.enum)
    return no(
      `the spec lets the provider send any ${typesText(place.facts)} here (no enum); the ${matcher.match} matcher wants ${what}`,
      place.facts.types.includes('string') ? '' : otherType(place.facts, []),
    );
  const rejected = place.facts.enum.filter((value) => !holds(value));
  return rejected.length > 0
    ? no(
        `the spec allows ${rejected.map(describeValue).join(', ')} here; the ${matcher.match} matcher wants ${what}`,
        rejected[0],
      )
    : ok(`every value the spec allows here is ${what}`);
}

function sizeVerdict(matcher: PactMatcher, place: MatcherPlace): MatcherVerdict {
  const typed = demandsType(place.facts, ['array'], 'a minimum/maximum type matcher');
  if (!typed.compatible) return typed;
  const maxItems = place.facts.nodes.find((node) => node.maxItems !== undefined)?.maxItems;
  if (matcher.max !== undefined && (maxItems === undefined || maxItems > matcher.max))
    return no(
      `the spec sets ${maxItems === undefined ? 'no maximum' : `a maximum of ${maxItems}`} for this list; the matcher fails lists longer than ${matcher.max}`,
      Array.from({ length: matcher.max + 1 }, () => place.pactValues.flat()[0] ?? {}),
    );
  return ok(
    `the spec sends a list here; a minimum of ${matcher.min ?? 0} elements holds when the provider state creates them`,
  );
}

/** `eachKey` judges every key of a map with its rules, `eachValue` every value. */
function eachVerdict(matcher: PactMatcher, place: MatcherPlace): MatcherVerdict {
  const typed = demandsType(place.facts, ['object'], `an ${matcher.match} matcher (it judges a map)`);
  if (!typed.compatible) return typed;
  const rules = (Array.isArray(matcher.rules) ? matcher.rules : []) as PactMatcher[];
  if (matcher.match === 'eachKey') {
    const keys = place.facts.nodes.flatMap((node) => Object.keys(node.properties ?? {}));
    for (const rule of rules.filter((item) => item.match === 'regex')) {
      const rejected = keys.find((key) => !pactRegexMatches(String(rule.regex ?? ''), key));
      if (rejected !== undefined)
        return no(
          `the spec names the key ${describeValue(rejected)} here, which the eachKey regex ${rule.regex} rejects`,
          {
            [rejected]: null,
          },
        );
    }
    return ok('every key the spec names here passes the eachKey rules');
  }
  const values = schemaAt({ allOf: [...place.facts.nodes] }, [{ kind: 'anyProperty' }]);
  if (!values) return ok('the spec names no values here for the eachValue rules to judge');
  for (const rule of rules) {
    const verdict = matcherVerdict(rule, { facts: values, examples: [], pactValues: [] });
    if (!verdict.compatible) return { ...verdict, reason: `each value: ${verdict.reason}` };
  }
  return ok('every value the spec allows here passes the eachValue rules');
}

/**
 * The verdict for one matcher of any type of the Pact specification (V2 to V4) against the schema
 * at its place. Each reason is what Pact's verifier does there, checked against the verifier itself
 * in `test/contracts-matchers-vs-pact.test.ts`.
 */
export function matcherVerdict(matcher: PactMatcher, place: MatcherPlace): MatcherVerdict {
  const facts = place.facts;
  // V2 writes `{ "min": 1 }` or `{ "regex": "…" }` without `match`.
  const kind = matcher.match ?? (matcher.regex !== undefined ? 'regex' : 'type');
  const normalised = { ...matcher, match: kind };
  switch (kind) {
    case 'regex':
      return regexVerdict(normalised, place);
    case 'type':
      if (matcher.min !== undefined || matcher.max !== undefined) return sizeVerdict(normalised, place);
      return place.pactValues.length > 0
        ? demandsType(
            facts,
            [jsonType(place.pactValues[0])],
            `a type matcher on ${describeValue(place.pactValues[0])}`,
          )
        : ok('a type matcher with no example here wants nothing of the spec');
    case 'integer':
      if (facts.types.includes('number') && !facts.types.includes('integer'))
        return no('the spec sends any number here, fractions included; an integer matcher rejects 1.5', 1.5);
      return demandsType(facts, ['integer'], 'an integer matcher');
    case 'decimal':
      if (facts.types.includes('number') || facts.types.includes('integer'))
        return no(
          'the spec allows whole numbers here; a decimal matcher rejects 150: use a number matcher',
          150,
        );
      return demandsType(facts, ['number'], 'a decimal matcher');
    case 'number':
      return demandsType(facts, ['number'], 'a number matcher');
    case 'boolean':
      // Pact's boolean matcher also takes the strings "true" and "false".
      return demandsType(facts, ['boolean'], 'a boolean matcher');
    case 'null':
      return demandsType(facts, ['null'], 'a null matcher');
    case 'date':
    case 'time':
    case 'timestamp':
    case 'datetime':
      return dateVerdict(normalised, place);
    case 'include':
    case 'equality':
      return valueVerdict(normalised, place);
    case 'notEmpty': {
      const minLength = facts.nodes.some((node) => (node.minLength ?? 0) > 0 || (node.minItems ?? 0) > 0);
      if (facts.types.includes('array') && !minLength)
        return ok('the spec sends a list here; it is not empty when the provider state creates its elements');
      return minLength
        ? ok('the spec never sends an empty value here')
        : no(`the spec allows an empty ${typesText(facts)} here (no minLength); notEmpty rejects ""`, '');
    }
    case 'semver': {
      const typed = demandsType(facts, ['string'], 'a semver matcher');
      if (!typed.compatible) return typed;
      const rejected = specValues(place).filter(
        (value) => typeof value !== 'string' || !/^\d+\.\d+\.\d+(-[\w.-]+)?(\+[\w.-]+)?$/.test(value),
      );
      return rejected.length > 0
        ? no(`the spec shows ${describeValue(rejected[0])} here, not a semantic version`, rejected[0])
        : ok('every value the spec shows here is a semantic version');
    }
    case 'values':
      return demandsType(facts, ['object'], 'a values matcher (it judges a map)');
    case 'eachKey':
    case 'eachValue':
      return eachVerdict(normalised, place);
    case 'arrayContains':
      return demandsType(facts, ['array'], 'an arrayContains matcher');
    case 'contentType': {
      const wanted = String(matcher.value ?? '');
      if (!place.body)
        return no(
          `a contentType matcher judges the bytes of a whole body; on a JSON field the verifier sees text and rejects it`,
          place.pactValues[0],
        );
      return place.body.mediaType.startsWith(wanted)
        ? ok(`the spec's body is ${place.body.mediaType}, as the contentType matcher wants`)
        : no(`the spec's body is ${place.body.mediaType}; the contentType matcher wants ${wanted}`);
    }
    default:
      return no(`pacu knows no Pact matcher "${kind}": Pact's verifier would not either`);
  }
}
