import { InvalidArgumentError } from 'commander';

/** A repeatable flag: each use adds its value to the list. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** A whole number from `min` to `max`, else commander's usage error naming the flag. */
export function wholeNumber(
  name: string,
  min: number,
  max: number,
  unit = 'number',
): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max)
      throw new InvalidArgumentError(`${name} must be a whole ${unit} from ${min} to ${max}`);
    return parsed;
  };
}

/** A number above 0 and at most `max` (fractions allowed: `--rate 0.5` is one request every 2 s). */
export function positive(name: string, max: number): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed <= 0 || parsed > max)
      throw new InvalidArgumentError(`${name} must be a number above 0 and at most ${max}`);
    return parsed;
  };
}

/** `--header NAME:VALUE` (repeatable): a header every request to the target carries. */
export function header(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const colon = value.indexOf(':');
  const name = colon > 0 ? value.slice(0, colon).trim() : '';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
    throw new InvalidArgumentError(`--header ${value}: expected NAME:VALUE, e.g. x-api-key:abc123`);
  return { ...previous, [name.toLowerCase()]: value.slice(colon + 1).trim() };
}

/** An http(s) URL, else commander's usage error naming the flag. */
export function httpUrl(name: string): (value: string) => string {
  return (value) => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new InvalidArgumentError(`${name} "${value}" is not an http(s) URL`);
    return value;
  };
}

const DURATION_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A time such as `90s`, `5m` or `1h` (a bare number is seconds), in ms, from 1 s to `maxMs`. */
export function duration(name: string, maxMs: number): (value: string) => number {
  return (value) => {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
    const ms = match ? Number(match[1]) * (DURATION_UNITS[match[2] ?? 's'] as number) : Number.NaN;
    if (!Number.isFinite(ms) || ms < 1000 || ms > maxMs)
      throw new InvalidArgumentError(
        `${name} must be a time from 1s to ${maxMs / 60_000}m, such as 90s or 5m`,
      );
    return Math.round(ms);
  };
}
