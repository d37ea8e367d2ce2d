/**
 * Pact's date, time and timestamp matchers take a Java-style pattern (`yyyy-MM-dd'T'HH:mm:ssXXX`).
 * This turns the pattern letters pacu's values can meet into a regex over the whole value, so the
 * spec's timestamps can be judged without calling the verifier; a letter it does not know gives
 * undefined (not judged), never a guess.
 */
const LETTERS: Record<string, (count: number) => string> = {
  y: (count) => (count === 2 ? '\\d{2}' : '\\d{4}'),
  u: (count) => (count === 2 ? '\\d{2}' : '\\d{4}'),
  M: (count) => (count >= 3 ? '[A-Za-z]+' : count === 2 ? '\\d{2}' : '\\d{1,2}'),
  d: (count) => (count === 2 ? '\\d{2}' : '\\d{1,2}'),
  H: (count) => (count === 2 ? '\\d{2}' : '\\d{1,2}'),
  h: (count) => (count === 2 ? '\\d{2}' : '\\d{1,2}'),
  m: (count) => (count === 2 ? '\\d{2}' : '\\d{1,2}'),
  s: (count) => (count === 2 ? '\\d{2}' : '\\d{1,2}'),
  S: (count) => `\\d{${count}}`,
  a: () => '(AM|PM|am|pm)',
  E: () => '[A-Za-z]+',
  // X: `Z` for zero offset; x and Z never write `Z`.
  X: (count) =>
    count === 1
      ? '(Z|[+-]\\d{2}(\\d{2})?)'
      : count === 2 || count === 4
        ? '(Z|[+-]\\d{4})'
        : '(Z|[+-]\\d{2}:\\d{2})',
  x: (count) =>
    count === 1 ? '[+-]\\d{2}(\\d{2})?' : count === 2 || count === 4 ? '[+-]\\d{4}' : '[+-]\\d{2}:\\d{2}',
  Z: (count) => (count <= 3 ? '[+-]\\d{4}' : '(Z|[+-]\\d{2}:\\d{2})'),
};

const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The whole-value regex a Pact date/time pattern accepts, or undefined when a letter is unknown. */
export function datePatternRegex(pattern: string): RegExp | undefined {
  let source = '';
  let index = 0;
  while (index < pattern.length) {
    const char = pattern[index] ?? '';
    if (char === "'") {
      const end = pattern.indexOf("'", index + 1);
      if (end < 0) return undefined;
      source += end === index + 1 ? "'" : literal(pattern.slice(index + 1, end));
      index = end + 1;
      continue;
    }
    if (/[A-Za-z]/.test(char)) {
      let count = 1;
      while (pattern[index + count] === char) count += 1;
      const letter = LETTERS[char];
      if (!letter) return undefined;
      source += letter(count);
      index += count;
      continue;
    }
    source += literal(char);
    index += 1;
  }
  return new RegExp(`^${source}$`);
}

/** ISO 8601 timestamps (RFC 3339): what Pact's timestamp matcher accepts without a format. */
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;
