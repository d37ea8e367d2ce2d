import fc from 'fast-check';
import type { JSONSchema7 } from '../../spec/index.ts';
import { dataOf, isSuccess } from '../judge/envelope-checks.ts';
import type { ApiRequest } from '../target/api-request.ts';
import type { AnyOperation } from './read-operation.ts';
import { defineRule, PASS, type Verdict } from './rule.ts';

/** Fields of one page that pacu relates (`x-pacu-pages` beside its x-pacu-decision in the spec). */
interface PageFields {
  readonly items: string;
  readonly count: string;
  readonly pages: string;
}

/** The page relation the operation's success schema declares, wherever in it (read from the spec). */
export function pageFieldsOf(operation: AnyOperation): PageFields | undefined {
  const find = (node: unknown): PageFields | undefined => {
    if (!node || typeof node !== 'object') return undefined;
    const said = (node as Record<string, unknown>)['x-pacu-pages'] as PageFields | undefined;
    if (said) return said;
    for (const child of Object.values(node)) {
      const found = find(child);
      if (found) return found;
    }
    return undefined;
  };
  return find(operation.responses.get(200)?.schema as JSONSchema7 | undefined);
}

/** Why a first page's fields disagree, or undefined (a field of another type is success-shape's). */
export function pageProblem(data: Record<string, unknown>, fields: PageFields): string | undefined {
  const items = data[fields.items];
  const count = data[fields.count];
  const pages = data[fields.pages];
  if (!Array.isArray(items) || !Number.isInteger(count) || !Number.isInteger(pages)) return undefined;
  const [n, total, said] = [items.length, count as number, pages as number];
  const names = `${fields.pages} is ${said}`;
  if (n > total) return `the page holds ${n} ${fields.items} while ${fields.count} is ${total}`;
  if (total === 0) return said <= 1 ? undefined : `${names} while ${fields.count} is 0`;
  if (n === 0) return `a first page holds no ${fields.items} while ${fields.count} is ${total}`;
  const expected = n === total ? 1 : Math.ceil(total / n);
  if (said === expected) return undefined;
  return n === total
    ? `${names}, but the first page holds all ${total} of ${fields.count}: one page`
    : `${names}, but ${fields.count} ${total} at ${n} a page (the first page's size) makes ${expected}`;
}

/**
 * Fields of one answer that pacu relates agree. No sentence relates them ("query parameters (paging,
 * filtering): not shown" leaves even the page size open): an x-pacu-decision, strict only.
 * (docs/decisions/172)
 */
export const relatedFieldsRule = defineRule({
  id: 'envelope.related-fields',
  category: 'envelope',
  title:
    "fields of one answer agree: a first page's total_pages is what total_count fills at that page's size (pacu's decision)",
  appliesTo: (operation) => pageFieldsOf(operation) !== undefined,
  needs: ['client', 'token', 'ids'],
  profileFor: () => 'strict',
  run(kit) {
    const fields = pageFieldsOf(kit.operationSpec) as PageFields;
    const [valid] = fc.sample(kit.valid(), { seed: kit.seed, numRuns: 1 }) as [ApiRequest];
    // The first page at the provider's own size: no query parameter at all.
    const request = { ...valid, path: valid.path.split('?')[0] ?? valid.path };
    return kit.once(async (): Promise<Verdict> => {
      const response = await kit.send(request);
      const data = dataOf(response);
      const problem = isSuccess(response) && data ? pageProblem(data, fields) : undefined;
      return problem ? { ok: false, reason: problem, request, response } : PASS;
    });
  },
});
