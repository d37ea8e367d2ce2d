import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../http/index.ts';
import { startMock } from '../mock/index.ts';
import { loadSpec } from '../spec/index.ts';
import {
  optionWording,
  type Report,
  RULES,
  resolveTargetConfig,
  runChecks,
  type TargetConfig,
} from '../suites/index.ts';
import { resolveNeeds } from '../suites/runner/resolve-needs.ts';
import { openRunContext } from '../suites/runner/run-context.ts';
import { closers, provider } from './helpers/check-run.ts';
import { TEST_SEED } from './providers/run-against.ts';

/**
 * The only skips a rule may write itself: facts its own judgement finds, which no need could meet.
 * - envelope.error-shape: nothing to judge (no bad input documented, and no rule received an error);
 * - errors.invalid-body: the operation's schema, under the profile, has no constraint to break.
 */
const RULE_OWNED_SKIPS: Record<string, RegExp> = {
  'envelope.error-shape': /received no error answer|no rule received an error answer/,
  'errors.invalid-body': /^the schema documents no constraint to break$/,
};

/** Every skipped cell of a strict run on `config` says what resolve-needs, asked afresh, says. */
async function expectSkipsFromResolver(config: TargetConfig): Promise<Report> {
  const report = await runChecks({ target: config, profile: 'strict', seed: TEST_SEED, runs: 3 });
  // The same needs resolved afresh on the same target: a skip the resolver does not give is a rule's own.
  const run = await openRunContext({
    spec: await loadSpec(),
    profile: 'strict',
    config,
    seed: TEST_SEED,
    numRuns: 3,
    redactor: createRedactor(),
    word: optionWording,
  });
  try {
    for (const result of report.rules) {
      const rule = RULES.find((candidate) => candidate.id === result.id);
      if (!rule || result.operation === 'unknown') throw new Error(`no rule ${result.id}`);
      const resolved = await resolveNeeds(run, rule, result.operation);
      const where = `${result.id} on ${result.operation}`;
      if ('reason' in resolved)
        expect({ where, skip: result.skipReason }).toEqual({ where, skip: resolved.reason });
      else if (result.status === 'skipped')
        expect(result.skipReason, where).toMatch(RULE_OWNED_SKIPS[result.id] ?? /^$/);
    }
  } finally {
    await run.close();
  }
  return report;
}

const skipOf = (report: Report, id: string): (string | undefined)[] =>
  report.rules.filter((rule) => rule.id === id).map((rule) => rule.skipReason);

describe('skip reasons come only from resolve-needs', () => {
  // Two ways no token lacks the operation's scope: the target refuses a token for part of the
  // client's scopes, or it grants them all whatever is asked (and echoes the grant).
  it.each([
    {
      name: 'refusing a token for part of the scopes',
      options: { style: 'pacu', wholeScopeOnly: true },
      reason:
        /^needs a client holding scope (card|us_account): the target refused a token for scope \w+ \(HTTP 400\)/,
    },
    {
      name: 'granting every scope whatever is asked',
      options: { style: 'pacu', grantsEveryScope: true },
      reason:
        /^the target granted scope card,us_account when asked for \w+: pacu cannot hold a token without \w+$/,
    },
  ] as const)(
    'against a provider $name, every skip is the reason the resolver gives',
    async ({ options, reason }) => {
      const target = await provider(options);
      const report = await expectSkipsFromResolver(
        resolveTargetConfig({ target: target.url, ...target.client, ...target.ids }),
      );
      const scoped = skipOf(report, 'auth.scope-enforced');
      expect(scoped.length).toBeGreaterThan(0);
      for (const skip of scoped) expect(skip).toMatch(reason);
    },
  );

  it('against a pacu mock on a real clock, the expired token and the observation skip through the resolver', async () => {
    const mock = await startMock({ log: () => {} });
    closers.push(() => mock.close());
    const report = await expectSkipsFromResolver(
      resolveTargetConfig({
        target: mock.url,
        clientId: mock.demoClient.clientId,
        clientSecret: mock.demoClient.clientSecret,
        controlUrl: mock.origin,
      }),
    );
    const clock = /^the target's clock cannot be advanced \(HTTP \d+\); start the mock with --clock manual$/;
    for (const id of ['auth.token-expired', 'lifecycle.status-transitions', 'lifecycle.signed-webhooks']) {
      expect(skipOf(report, id).length, id).toBeGreaterThan(0);
      for (const reason of skipOf(report, id)) expect(reason, id).toMatch(clock);
    }
  });

  it('no rule calls skipped() but those whose own judgement finds nothing to judge', () => {
    const dir = new URL('../suites/rules/', import.meta.url);
    const callers = readdirSync(dir).filter((file) =>
      readFileSync(new URL(file, dir), 'utf8').includes('skipped('),
    );
    expect(callers.sort()).toEqual(['envelope.ts', 'errors.ts']);
  });
});
