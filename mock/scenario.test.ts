import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from './default-scenario.ts';
import { stepsFor } from './internal/scenario-match.ts';
import { loadScenarioFile, validateScenario } from './scenario.ts';

describe('scenario validation', () => {
  it('passes the built-in scenario (the mock skips checking it at start)', () => {
    expect(validateScenario(DEFAULT_SCENARIO)).toBe(DEFAULT_SCENARIO);
  });

  it.each([
    [{}, 'must have required property rules'],
    [
      { rules: [{ match: {}, steps: [{ after: -1, status: 'failed' }] }] },
      '/rules/0/steps/0/after must be >= 0',
    ],
    [{ rules: [{ match: { amount: 'x' }, steps: [] }] }, '/rules/0/match/amount'],
    [{ rules: [{ match: { colour: 'red' }, steps: [] }] }, 'must NOT have additional property colour'],
    [{ rules: [{ match: { reference: '(' }, steps: [] }] }, 'not a regular expression'],
    [
      {
        rules: [
          {
            match: {},
            steps: [
              { after: 9, status: 'failed' },
              { after: 1, status: 'successful' },
            ],
          },
        ],
      },
      'in order of after',
    ],
  ])('refuses %j naming the mistake', (value, message) => {
    expect(() => validateScenario(value, 'x.yaml')).toThrow(message);
  });

  it('reads YAML files and names the file when it is broken', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacu-scenario-'));
    const good = path.join(dir, 'good.yaml');
    writeFileSync(
      good,
      'rules:\n  - match: { transfer_type: WIRE }\n    steps: [{ after: 1, status: successful }]\n',
    );
    expect(loadScenarioFile(good).rules).toHaveLength(1);
    const bad = path.join(dir, 'bad.yaml');
    writeFileSync(bad, 'rules: [ {');
    expect(() => loadScenarioFile(bad)).toThrow(
      `pacu: scenario ${bad}: it is not valid YAML (line 1, column`,
    );
  });
});

describe('scenario matching', () => {
  const scenario = validateScenario({
    rules: [
      { match: { reference: 'FAIL-.*' }, steps: [{ after: 1, status: 'failed' }] },
      {
        match: { amount: { min: 100, max: 200 }, kind: ['wallet_payout'] },
        steps: [{ after: 2, status: 'successful' }],
      },
      { match: { account_number: '0000' }, steps: [] },
    ],
  });

  it('takes the first rule that matches, references matched whole', () => {
    expect(stepsFor(scenario, { kind: 'usd_transfer', amount: 150, reference: 'FAIL-1' })[0]?.status).toBe(
      'failed',
    );
    expect(stepsFor(scenario, { kind: 'usd_transfer', amount: 150, reference: 'X-FAIL-1' })).toEqual([]);
    expect(stepsFor(scenario, { kind: 'wallet_payout', amount: 150 })[0]?.after).toBe(2);
    expect(stepsFor(scenario, { kind: 'wallet_payout', amount: 250 })).toEqual([]);
  });

  it('fails 13.13 everywhere and settles ACH later than WIRE by default', () => {
    for (const kind of ['usd_transfer', 'wallet_payout', 'push_to_card'] as const) {
      expect(stepsFor(DEFAULT_SCENARIO, { kind, amount: 13.13, transfer_type: 'ACH' })[0]?.status).toBe(
        'failed',
      );
    }
    const ach =
      stepsFor(DEFAULT_SCENARIO, { kind: 'usd_transfer', amount: 5, transfer_type: 'ACH' })[0]?.after ?? 0;
    const wire =
      stepsFor(DEFAULT_SCENARIO, { kind: 'usd_transfer', amount: 5, transfer_type: 'WIRE' })[0]?.after ?? 0;
    expect(ach).toBeGreaterThan(wire);
    expect(stepsFor(DEFAULT_SCENARIO, { kind: 'usd_transfer', amount: 13.14 })).toEqual([]);
  });
});
