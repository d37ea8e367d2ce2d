// A new payment's lifecycle is kept as its rule's shared plan and its creation time; what it says
// (each step's time and status, in state files and to the clock) is what a list of steps said.
import { expect, it } from 'vitest';
import type { Scenario } from '../types.ts';
import { lifecycleFor, nextStep } from './lifecycle.ts';

const created = 1_764_000_000_123;
const scenario = (): Scenario => ({
  rules: [
    {
      match: {},
      steps: [
        { after: 1.5, status: 'successful' },
        { after: 30, status: 'failed' },
      ],
    },
  ],
});
const facts = { kind: 'usd_transfer', amount: 10, reference: 'R-1' } as const;

it('writes each step at its time on the mock clock, as state files hold a lifecycle', () => {
  const lifecycle = lifecycleFor(scenario(), facts, created);
  expect(JSON.parse(JSON.stringify({ lifecycle }))).toEqual({
    lifecycle: {
      steps: [
        { at: created + 1500, status: 'successful' },
        { at: created + 30_000, status: 'failed' },
      ],
      next: 0,
    },
  });
});

it('names the step ahead until every step is taken, as a lifecycle read from a file does', () => {
  const lifecycle = lifecycleFor(scenario(), facts, created);
  if (!lifecycle) throw new Error('the rule matches');
  const loaded = JSON.parse(JSON.stringify(lifecycle));
  for (const each of [lifecycle, loaded]) {
    expect(nextStep(each)).toEqual({ at: created + 1500, status: 'successful' });
    each.next++;
    expect(nextStep(each)).toEqual({ at: created + 30_000, status: 'failed' });
    each.next++;
    expect(nextStep(each)).toBeUndefined();
  }
  expect(nextStep(undefined)).toBeUndefined();
});

it("times each payment's steps from its own start, and sees a rule edited in place", () => {
  const shared = scenario();
  const first = lifecycleFor(shared, facts, created);
  const second = lifecycleFor(shared, facts, created + 5);
  expect(nextStep(second)).toEqual({ at: created + 5 + 1500, status: 'successful' });
  // The scenario is the caller's object: a step changed in it counts for payments made after.
  const step = shared.rules[0]?.steps[0];
  if (!step) throw new Error('the rule has steps');
  step.after = 2;
  step.status = 'failed';
  expect(nextStep(lifecycleFor(shared, facts, created))).toEqual({ at: created + 2000, status: 'failed' });
  // ...and nothing for payments made before, whose steps were fixed when they were made.
  expect(nextStep(first)).toEqual({ at: created + 1500, status: 'successful' });
  expect(lifecycleFor({ rules: [] }, facts, created)).toBeUndefined();
});
