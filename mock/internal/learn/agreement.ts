import type { ReportDraft } from './learned-report.ts';

/** The value most samples have, with the samples that have it. */
export function mostCommon<T>(pairs: ReadonlyArray<readonly [T, number]>): [T, number[]] | undefined {
  const counts = new Map<string, { value: T; entries: number[] }>();
  for (const [value, entry] of pairs) {
    const key = JSON.stringify(value);
    const seen = counts.get(key) ?? { value, entries: [] };
    seen.entries.push(entry);
    counts.set(key, seen);
  }
  const [best] = [...counts.values()].sort((a, b) => b.entries.length - a.entries.length);
  return best ? [best.value, best.entries] : undefined;
}

/** One value every sample agrees on, with the samples; undefined when they disagree (noted). */
export function agreed<T>(
  pairs: ReadonlyArray<readonly [T, number]>,
  report: ReportDraft,
  what: string,
): [T, number[]] | undefined {
  const found = mostCommon(pairs);
  if (!found) return undefined;
  if (found[1].length < pairs.length) {
    const others = pairs.filter(([, entry]) => !found[1].includes(entry)).map(([, entry]) => entry);
    report.unlearned(others, `${what} differs from the other answers': the most common one is learned`);
  }
  return found;
}
