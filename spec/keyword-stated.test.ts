import { describe, expect, it } from 'vitest';
import { loadSpec } from './index.ts';
import { whyNotStated } from './keyword-stated.ts';
import { documentedConstraints, type TracedConstraint } from './traceability.ts';

const row = (over: Partial<TracedConstraint>): TracedConstraint => ({
  operation: 'usdTransfer',
  path: 'response.200.data.description',
  keyword: 'required',
  value: true,
  source: '| description | string |',
  ...over,
});

describe('a documented constraint is stated by its cited words (finding 1)', async () => {
  const spec = await loadSpec();

  it('every keyword of the documented view is stated by the sentence it cites', () => {
    const unstated = documentedConstraints(spec).flatMap((constraint) => {
      const why = whyNotStated(constraint);
      return why ? [`${constraint.operation} ${why}`] : [];
    });
    expect(unstated).toEqual([]);
  });

  it('a type row states a type, not presence', () => {
    expect(whyNotStated(row({}))).toBeDefined();
    expect(whyNotStated(row({ keyword: 'type', value: 'string' }))).toBeUndefined();
    expect(whyNotStated(row({ keyword: 'type', value: 'number' }))).toBeDefined();
  });

  it('presence needs the field named and a word that hands it over, never "not shown"', () => {
    const adds =
      'The response echoes the request fields and adds transaction_date, transaction_id and transaction_status.';
    expect(whyNotStated(row({ path: 'response.200.data.transaction_id', source: adds }))).toBeUndefined();
    expect(whyNotStated(row({ path: 'response.200.data.description', source: adds }))).toBeDefined();
    expect(
      whyNotStated(row({ path: 'request.body.amount', source: '| amount | number | yes | |' })),
    ).toBeUndefined();
    expect(
      whyNotStated(row({ path: 'request.body.description', source: '| description | string | no | |' })),
    ).toBeDefined();
    expect(
      whyNotStated(row({ path: 'x.status', source: 'Allowed values of status: not shown.' })),
    ).toBeDefined();
  });

  it('an enum needs every value in the sentence; a format its words; a pattern its listed words', () => {
    const source = '| account_type | string | yes | One of CHECKING, SAVINGS, BUSINESS |';
    expect(whyNotStated(row({ keyword: 'enum', value: ['CHECKING', 'SAVINGS'], source }))).toBeUndefined();
    expect(whyNotStated(row({ keyword: 'enum', value: ['CHECKING', 'JOINT'], source }))).toBeDefined();
    expect(
      whyNotStated(row({ keyword: 'format', value: 'email', source: '| wallet_id | string |' })),
    ).toBeDefined();
    expect(whyNotStated(row({ keyword: 'pattern', value: '^[a-z]+$', source }))).toBeDefined();
    expect(whyNotStated(row({ keyword: 'maxLength', value: 64, source }))).toBeDefined();
  });
});
