import type { Redactor } from './redaction.ts';

// A keeper that redacts when read (the mock's journal, the proxy's ring of exchanges) would show a
// learned secret in clear once the redactor forgot it to make room: it is remembered here, with
// its stand-in, until every item kept before it was forgotten has been replaced by newer ones.

/** A secret the redactor forgot, and the count of items kept by when the last one kept before is gone. */
interface Forgotten {
  readonly secret: string;
  readonly standIn: string;
  readonly until: number;
}

/** What a keeper of the last `size` items does with the secrets its redactor forgets. */
export interface ForgottenSecrets {
  /** Count one more item kept (the oldest of a full keeper goes). */
  kept(): void;
  /** `text` with every forgotten secret it holds replaced by its stand-in, the longest first. */
  scrub(text: string): string;
  /** A copy of `value` with every string scrubbed (the value itself when nothing was forgotten). */
  scrubAll<T>(value: T): T;
}

/**
 * @example
 * const forgotten = rememberForgotten(redactor, 1000);
 * // on each item kept: forgotten.kept(); when shown: redactor.redactText(forgotten.scrub(text))
 */
export function rememberForgotten(redactor: Redactor, size: number): ForgottenSecrets {
  let kept = 0;
  // In the order forgotten, so in the order of `until`: the expired ones are at the front.
  let forgotten: Forgotten[] = [];
  let longestFirst: Forgotten[] | undefined;
  redactor.onForget((secret, standIn) => {
    forgotten.push({ secret, standIn, until: kept + size });
    longestFirst = undefined;
  });
  const scrub = (text: string): string => {
    if (forgotten.length === 0) return text;
    longestFirst ??= [...forgotten].sort((a, b) => b.secret.length - a.secret.length);
    let out = text;
    for (const { secret, standIn } of longestFirst)
      if (out.includes(secret)) out = out.replaceAll(secret, standIn);
    return out;
  };
  const scrubAll = <T>(value: T): T => {
    if (forgotten.length === 0) return value;
    const walk = (item: unknown): unknown => {
      if (typeof item === 'string') return scrub(item);
      if (Array.isArray(item)) return item.map(walk);
      if (item && typeof item === 'object')
        return Object.fromEntries(Object.entries(item).map(([name, inner]) => [name, walk(inner)]));
      return item;
    };
    return walk(value) as T;
  };
  return {
    kept() {
      kept += 1;
      let gone = 0;
      while (gone < forgotten.length && (forgotten[gone] as Forgotten).until <= kept) gone += 1;
      if (gone > 0) {
        forgotten = forgotten.slice(gone);
        longestFirst = undefined;
      }
    },
    scrub,
    scrubAll,
  };
}
