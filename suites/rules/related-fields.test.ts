import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageProblem } from './related-fields.ts';

const fields = { items: 'items', count: 'total_count', pages: 'total_pages' };
const page = (items: number, count: number, pages: number) => ({
  items: Array.from({ length: items }, (_, i) => ({ user_id: `u${i}` })),
  total_count: count,
  total_pages: pages,
});

describe('pageProblem', () => {
  it("takes a first page whose total_pages is what total_count fills at the page's size", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 500 }), (size, count) => {
        const first = Math.min(size, count);
        const pages = count === 0 ? 0 : Math.ceil(count / size);
        return pageProblem(page(first, count, pages), fields) === undefined;
      }),
    );
  });

  it("names the fifth sandbox's page: 40 records, 20 a page, total_pages 3", () => {
    expect(pageProblem(page(20, 40, 3), fields)).toBe(
      "total_pages is 3, but total_count 40 at 20 a page (the first page's size) makes 2",
    );
  });

  it('refuses more users on the page than total_count, and pages when there is nothing', () => {
    expect(pageProblem(page(3, 2, 1), fields)).toMatch(/holds 3 items while total_count is 2/);
    expect(pageProblem(page(0, 0, 2), fields)).toMatch(/total_pages is 2 while total_count is 0/);
    expect(pageProblem(page(1, 1, 2), fields)).toMatch(/holds all 1 of total_count: one page/);
  });

  it('leaves fields of another type to envelope.success-shape', () => {
    expect(pageProblem({ items: [], total_count: '40', total_pages: 3 }, fields)).toBeUndefined();
  });
});
