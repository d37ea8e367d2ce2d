import { KnownSecrets } from './known-secrets.ts';
import { type Redactor, SECRET_STAND_INS } from './redaction.ts';

// A keeper that redacts when read (the mock's journal, the proxy's ring of exchanges) would show a
// learned secret in clear once the redactor forgot it to make room: it is remembered here, with
// its stand-in, until every item kept before it was forgotten has been replaced by newer ones.

/** A secret the redactor forgot, and the count of items kept by when the last one kept before it is gone. */
interface Forgotten {
  readonly secret: string;
  readonly until: number;
}

/** What a keeper of the last `size` items does with the secrets its redactor forgets. */
export interface ForgottenSecrets {
  /**
   * Count an item on its way to the keeper (an exchange ended, kept once it settles): what is
   * forgotten meanwhile waits for it too. A keeper that keeps items as they end need not.
   */
  arriving(): void;
  /** Count one more item kept (the oldest of a full keeper goes). */
  kept(): void;
  /** `text` with every forgotten secret it holds replaced by its stand-in, as the redactor would. */
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
  let arrived = 0;
  // In the order forgotten, so in the order of `until`: the expired ones are before `head`.
  let forgotten: Forgotten[] = [];
  let head = 0;
  /** Each forgotten secret's stand-in, and how many times it is in `forgotten` (learned and let go again). */
  const pending = new Map<string, { standIn: string; times: number }>();
  const known = new KnownSecrets();
  redactor.onForget((secret, standIn) => {
    // One more: the item whose learning made the redactor forget is kept after this, and may hold it.
    forgotten.push({ secret, until: Math.max(arrived, kept) + size + 1 });
    const before = pending.get(secret);
    if (before) before.times += 1;
    else pending.set(secret, { standIn, times: 1 });
    known.add(secret);
  });
  const standInOf = (secret: string): string => pending.get(secret)?.standIn ?? SECRET_STAND_INS.redacted;
  const scrub = (text: string): string => known.replace(text, standInOf);
  const scrubAll = <T>(value: T): T => {
    if (known.size === 0) return value;
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
    arriving() {
      arrived += 1;
    },
    kept() {
      kept += 1;
      while (head < forgotten.length && (forgotten[head] as Forgotten).until <= kept) {
        const { secret } = forgotten[head] as Forgotten;
        const entry = pending.get(secret);
        // Forgotten again since (learned once more, then let go): its later time keeps it.
        if (entry && --entry.times === 0) {
          pending.delete(secret);
          known.delete(secret);
        }
        head += 1;
      }
      // The expired front is cut off now and then, not copied away at every item kept.
      if (head > 1024 && head * 2 > forgotten.length) {
        forgotten = forgotten.slice(head);
        head = 0;
      }
    },
    scrub,
    scrubAll,
  };
}
