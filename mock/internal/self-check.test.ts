import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../spec/index.ts';
import { responseViolation } from './self-check.ts';

const spec = await loadSpec();
const example = spec.operation('getVirtualCard').responses.get(200)?.examples.found as {
  data: Record<string, unknown>;
};

describe('self-check', () => {
  it('passes a reply that matches the spec', () => {
    expect(responseViolation(spec, 'getVirtualCard', { status: 200, body: example })).toBeUndefined();
  });

  it('names a missing field, a wrong enum value and an undocumented status', () => {
    const { cvv: _cvv, ...withoutCvv } = example.data;
    expect(
      responseViolation(spec, 'getVirtualCard', { status: 200, body: { ...example, data: withoutCvv } }),
    ).toContain('must have required property cvv');
    expect(
      responseViolation(spec, 'getVirtualCard', {
        status: 200,
        body: { ...example, data: { ...example.data, card_type: 'PLASTIC' } },
      }),
    ).toContain('/data/card_type');
    expect(
      responseViolation(spec, 'listUsers', { status: 403, body: { success: false, message: 'x' } }),
    ).toContain('does not document status 403');
  });

  it('judges what goes on the wire: Infinity under type integer is caught (it is sent as null)', () => {
    const body = {
      success: true,
      message: 'Users listed',
      data: { items: [], page: Number.POSITIVE_INFINITY, total_count: 45, total_pages: Number.NaN },
    };
    const violation = responseViolation(spec, 'listUsers', { status: 200, body });
    expect(violation).toContain('/data/page');
    expect(violation).toContain('/data/total_pages');
  });
});
