/** What is wrong with a request body: a required field absent, or a value the bank does not take. */
export type Problem = { readonly kind: 'missing' | 'invalid'; readonly message: string };

/** A field's check: `undefined` when the value is acceptable, else why not. */
export type Check = (value: unknown) => string | undefined;

export interface FieldRule {
  readonly required: boolean;
  readonly check: Check;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function text(max: number): Check {
  return (value) => {
    if (typeof value !== 'string') return 'must be a string';
    if (value.trim() === '') return 'must not be blank';
    if (value.length > max) return `must be at most ${max} characters`;
    return undefined;
  };
}

export const email: Check = (value) =>
  text(254)(value) ?? (EMAIL.test(value as string) ? undefined : 'must be an e-mail address');

export function oneOf(values: readonly string[]): Check {
  return (value) =>
    typeof value === 'string' && values.includes(value) ? undefined : `must be one of ${values.join(', ')}`;
}

/** US dollars: positive, at most two decimal places, within the sandbox's per-payment ceiling. */
export function amount(ceiling: number): Check {
  return (value) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
    if (value <= 0) return 'must be greater than 0';
    if (value > ceiling) return `must not exceed ${ceiling}`;
    if (Math.abs(Math.round(value * 100) - value * 100) > 1e-6) return 'must have at most two decimal places';
    return undefined;
  };
}

export const boolean: Check = (value) => (typeof value === 'boolean' ? undefined : 'must be a boolean');

export const accountNumber: Check = (value) =>
  typeof value === 'string' && /^\d{4,17}$/.test(value) ? undefined : 'must be 4 to 17 digits';

/** An ABA routing number: nine digits whose weighted sum (3, 7, 1) is a multiple of 10. */
export const routingNumber: Check = (value) =>
  typeof value === 'string' && /^\d{9}$/.test(value) && abaChecksumHolds(value)
    ? undefined
    : 'must be a valid 9-digit ABA routing number';

export function abaChecksumHolds(routing: string): boolean {
  const weights = [3, 7, 1];
  const sum = [...routing].reduce((total, digit, i) => total + Number(digit) * (weights[i % 3] ?? 0), 0);
  return sum % 10 === 0;
}

/** The first problem of `body` against `rules`, in the order the rules are listed. */
export function firstProblem(
  body: Record<string, unknown>,
  rules: Record<string, FieldRule>,
): Problem | undefined {
  for (const [field, rule] of Object.entries(rules)) {
    const value = body[field];
    if (value === undefined) {
      if (rule.required) return { kind: 'missing', message: `${field} is required` };
      continue;
    }
    const why = rule.check(value);
    if (why !== undefined) return { kind: 'invalid', message: `${field} ${why}` };
  }
  return undefined;
}

/** The JSON object a body holds, whatever its Content-Type says; `undefined` when it holds none. */
export function parseJsonObject(textBody: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(textBody);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
