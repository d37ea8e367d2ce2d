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
