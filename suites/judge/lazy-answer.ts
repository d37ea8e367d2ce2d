import { jsonOrUndefined } from '../target/api-request.ts';
import type { ObservedExchange } from './exchange-judge.ts';

/** Where an answer keeps its parsed body once `json` was read (a symbol: reports and walks skip it). */
const PARSED = Symbol('parsed');

type LazyAnswer = Omit<ObservedExchange['response'], 'json'> & { [PARSED]: { value: unknown } | undefined };

/** One getter for every answer: a closure per answer gave each its own hidden class (see answerOf). */
function parsedJson(this: LazyAnswer): unknown {
  this[PARSED] ??= { value: jsonOrUndefined(this.text) };
  return this[PARSED].value;
}

/**
 * The answer with `json` parsed on first read: the judge remembers its verdict on a text it saw, so
 * most reads of a busy proxy never need the parse. One getter shared by all answers: a closure per
 * answer gave each a hidden class of its own, old-generation garbage (docs/decisions/101).
 */
export function answerOf(response: Omit<ObservedExchange['response'], 'json'>): ObservedExchange['response'] {
  // A literal of one shape, not a spread: every answer gets the same hidden class.
  const lazy: LazyAnswer = {
    status: response.status,
    headers: response.headers,
    text: response.text,
    durationMs: response.durationMs,
    [PARSED]: undefined,
  };
  return Object.defineProperty(lazy, 'json', {
    enumerable: true,
    get: parsedJson,
  }) as unknown as ObservedExchange['response'];
}

/** Drop the parsed body an answer of {@link answerOf} keeps (parsed again if `json` is read again); any other answer is left as it is. */
export function forgetParsed(response: ObservedExchange['response']): void {
  if (PARSED in response) (response as unknown as LazyAnswer)[PARSED] = undefined;
}
