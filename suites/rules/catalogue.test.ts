import { describe, expect, it } from 'vitest';
import { CHECKS, checkNamed, faultOf, judgedCheck, RULES } from './catalogue.ts';

describe('the one registry of checks', () => {
  it('names each check once', () => {
    const ids = CHECKS.map((check) => check.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it("holds every rule pacu check runs, under the rule's own id, category and title", () => {
    for (const rule of RULES)
      expect(checkNamed(rule.id)).toMatchObject({
        id: rule.id,
        category: rule.category,
        title: rule.title,
        rule,
      });
    expect(CHECKS.filter((check) => !check.rule && !check.judge)).toEqual([]);
  });

  it("says whose fault a failure is: the client's for the judge's findings about requests, else the provider's", () => {
    expect(CHECKS.filter((check) => check.fault === 'client').map((check) => check.id)).toEqual([
      'client.operation',
      'client.content-type',
      'client.request-shape',
      'client.authorization',
    ]);
    expect(faultOf('positive.accepted')).toBe('provider');
    expect(faultOf('a pact interaction')).toBe('provider');
  });

  it('hands a judge only the checks the registry lists for it, and refuses another id', () => {
    expect(judgedCheck('exchange', 'envelope.success-shape')).toBe('envelope.success-shape');
    expect(() => judgedCheck('exchange', 'client.no-such-check')).toThrow(
      /no exchange check client\.no-such-check/,
    );
    expect(() => judgedCheck('state', 'client.operation')).toThrow(/no state check/);
  });
});
