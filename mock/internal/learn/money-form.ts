/** How amounts are written in the JSON text: `125.5` (the shortest number) or `125.50` (two decimals). */
export type MoneyForm = 'shortest' | 'two-decimals';

const regexQuoted = (name: string): string => name.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** Every number written under one of `keys` in a JSON text, as written. */
export function moneyTokens(text: string, keys: readonly string[]): string[] {
  if (keys.length === 0) return [];
  const pattern = new RegExp(
    `"(?:${keys.map(regexQuoted).join('|')})"\\s*:\\s*(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)`,
    'g',
  );
  return [...text.matchAll(pattern)].map((match) => match[1] as string);
}

/**
 * The form the written amounts show, or undefined when they show none (every amount reads the same
 * either way, such as `12.34`) or disagree (`40` beside `125.50`).
 */
export function moneyFormOf(tokens: readonly string[]): MoneyForm | undefined {
  const twoDecimals = tokens.filter((token) => /^-?\d+\.\d{2}$/.test(token));
  const shortestOnly = tokens.filter((token) => String(Number(token)) === token && !/\.\d{2}$/.test(token));
  const padded = twoDecimals.filter((token) => String(Number(token)) !== token);
  if (padded.length > 0) return shortestOnly.length === 0 ? 'two-decimals' : undefined;
  return shortestOnly.length > 0 ? 'shortest' : undefined;
}

const MARK = '\u0000pacu-money:';

/**
 * `body` as JSON text with every number under `keys` written with two decimals: numbers become
 * marked strings first, and the marks are unquoted after `JSON.stringify`.
 */
export function withTwoDecimals(body: unknown, keys: ReadonlySet<string>): string {
  const text = JSON.stringify(body, (key, value) =>
    typeof value === 'number' && keys.has(key) && Number.isFinite(value)
      ? `${MARK}${value.toFixed(2)}`
      : value,
  );
  return text.replace(/"\\u0000pacu-money:(-?\d+\.\d{2})"/g, '$1');
}
