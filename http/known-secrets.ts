// The redactor's known secrets, found in a text: by one regular expression while they are few, by
// their first characters once they are many. A pattern of a thousand alternatives is tried whole at
// every character of a text, and was made again each time a secret joined (`--only redaction`).
import { escapeRegExp } from './redaction-policy.ts';

/** Up to this many secrets, one pattern of them all, longest first. */
const PATTERN_LIMIT = 32;
/** The characters a secret is filed under: no secret is shorter (the redactor's least length). */
export const KEY_LENGTH = 4;

/** A slot of the filter, from a text's three characters at `at`. */
const slotOf = (text: string, at: number): number =>
  ((text.charCodeAt(at) * 31 + text.charCodeAt(at + 1)) * 31 + text.charCodeAt(at + 2)) & 0xffff;

/**
 * Every known secret, kept as they join and leave. `replace` gives each occurrence in a text its
 * stand-in: at each position the longest secret that starts there, from the left, as one pattern
 * of them all, longest first, would.
 *
 * @example
 * const known = new KnownSecrets();
 * known.add('s3cret-value');
 * known.replace('key=s3cret-value', () => '[redacted]'); // 'key=[redacted]'
 */
export class KnownSecrets {
  /** By their first {@link KEY_LENGTH} characters, longest first. */
  readonly #byKey = new Map<string, string[]>();
  /** How many secrets start with characters of each slot: most positions of a text are passed at once. */
  readonly #filter = new Uint16Array(65_536);
  #size = 0;
  #pattern: RegExp | undefined;

  get size(): number {
    return this.#size;
  }

  add(secret: string): void {
    if (secret.length < KEY_LENGTH) return;
    const key = secret.slice(0, KEY_LENGTH);
    const list = this.#byKey.get(key);
    if (list?.includes(secret)) return;
    if (list) {
      const at = list.findIndex((other) => other.length < secret.length);
      list.splice(at === -1 ? list.length : at, 0, secret);
    } else this.#byKey.set(key, [secret]);
    this.#filter[slotOf(secret, 0)] += 1;
    this.#size += 1;
    this.#pattern = undefined;
  }

  delete(secret: string): void {
    const key = secret.slice(0, KEY_LENGTH);
    const list = this.#byKey.get(key);
    const at = list?.indexOf(secret) ?? -1;
    if (!list || at === -1) return;
    list.splice(at, 1);
    if (list.length === 0) this.#byKey.delete(key);
    this.#filter[slotOf(secret, 0)] -= 1;
    this.#size -= 1;
    this.#pattern = undefined;
  }

  /** `text` with each known secret in it replaced by `standIn(secret)`. */
  replace(text: string, standIn: (secret: string) => string): string {
    if (this.#size === 0 || text.length < KEY_LENGTH) return text;
    if (this.#size <= PATTERN_LIMIT) {
      this.#pattern ??= new RegExp(
        [...this.#byKey.values()]
          .flat()
          .sort((a, b) => b.length - a.length)
          .map(escapeRegExp)
          .join('|'),
        'g',
      );
      return text.replace(this.#pattern, standIn);
    }
    return this.#scan(text, standIn);
  }

  #scan(text: string, standIn: (secret: string) => string): string {
    const filter = this.#filter;
    let out = '';
    let kept = 0;
    const last = text.length - KEY_LENGTH;
    for (let at = 0; at <= last; ) {
      if (filter[slotOf(text, at)] === 0) {
        at += 1;
        continue;
      }
      const found = this.#byKey
        .get(text.slice(at, at + KEY_LENGTH))
        ?.find((secret) => text.startsWith(secret, at));
      if (found === undefined) {
        at += 1;
        continue;
      }
      out += text.slice(kept, at) + standIn(found);
      at += found.length;
      kept = at;
    }
    return kept === 0 ? text : out + text.slice(kept);
  }
}
