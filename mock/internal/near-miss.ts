import type { Spec } from '../../spec/index.ts';

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** A template with its `{params}` filled from the request's own segments, when the counts agree. */
function filled(template: string, path: string): string {
  const parts = template.split('/');
  const given = path.split('/');
  if (parts.length !== given.length) return template;
  return parts.map((part, index) => (/^\{.+\}$/.test(part) ? (given[index] ?? part) : part)).join('/');
}

/**
 * The operation a request that matched none probably meant, as a hint: `POST /v3/payment/usd/direct`
 * gets "did you mean POST /v3/payments/usd/direct?" (under `base`, the path the mock serves the
 * interface under). Undefined when nothing is near.
 */
export function nearMiss(
  spec: Spec,
  method: string,
  path: string,
  base: string = spec.basePath,
): string | undefined {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const relative = trimmed.startsWith(`${base}/`) ? trimmed.slice(base.length) : trimmed;
  const missingBase = !trimmed.startsWith(`${base}/`);
  let best: { text: string; cost: number } | undefined;
  for (const operation of spec.operations) {
    const candidate = filled(operation.path, relative);
    const cost = distance(relative, candidate) + (operation.method.toUpperCase() === method ? 0 : 2);
    if (!best || cost < best.cost)
      best = { text: `${operation.method.toUpperCase()} ${base}${candidate}`, cost };
  }
  if (!best) return undefined;
  const near = best.cost <= Math.max(3, Math.floor(relative.length * 0.25));
  if (!near) return missingBase ? `paths of the interface start with ${base}/` : undefined;
  const note = missingBase ? ` (paths start with ${base})` : trimmed !== path ? ' (no trailing slash)' : '';
  return `did you mean ${best.text}?${note}`;
}
