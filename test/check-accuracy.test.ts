import { afterAll, describe, expect, it } from 'vitest';
import { renderConsole } from '../cli/reporters/console-reporter.ts';
import { renderHtml } from '../cli/reporters/html-reporter.ts';
import { renderJson } from '../cli/reporters/json-reporter.ts';
import { type Report, resolveTargetConfig, runChecks } from '../suites/index.ts';
import { startBankSandbox } from './providers/independent/index.ts';
import { failuresOf, spaceTarget } from './providers/space/check-space.ts';
import type { Knobs } from './providers/space/knobs.ts';
import { type SpaceProvider, startSpaceProvider } from './providers/space/space-provider.ts';

// A bound the description shows nowhere is the provider's right. pacu reports what it
// learned of it, and fails only a provider that refuses the central value too.

/** Pinned and printed: a red case replays with the same inputs. */
const SEED = 36;
const started: SpaceProvider[] = [];
afterAll(async () => {
  await Promise.all(started.map((provider) => provider.close()));
});

async function accepted(knobs: Partial<Knobs>): Promise<Report> {
  const provider = await startSpaceProvider({ knobs });
  started.push(provider);
  return runChecks({ target: spaceTarget(provider), seed: SEED, rules: ['positive.accepted'] });
}

const learned = (report: Report): string[] => (report.learned?.bounds ?? []).map((bound) => bound.text);

describe.concurrent(`hidden bounds are learned, never failed (seed ${SEED})`, () => {
  it.each([
    [
      'a WIRE of less than 1.00 refused',
      { amountBounds: 'wire-from-1' },
      /^usdTransfer WIRE amount: refused below 1\.00$/,
    ],
    [
      'an amount over 25,000.00 refused',
      { amountBounds: 'up-to-25000' },
      /^usdTransfer amount: refused above 25000\.00$/,
    ],
    [
      'an ACH recipient_name over 22 characters refused',
      { stringBounds: 'ach-names-up-to-22' },
      /^usdTransfer ACH recipient_name: refused longer than 22 characters$/,
    ],
  ] as const)('%s: positive.accepted passes and the report names the bound', async (_name, knobs, bound) => {
    const report = await accepted(knobs);
    expect(failuresOf(report)).toEqual([]);
    expect(report.summary.passed).toBeGreaterThan(0);
    expect(learned(report)).toEqual(expect.arrayContaining([expect.stringMatching(bound)]));
    // One section of its own in every reporter, apart from the failures.
    const text = learned(report).find((line) => bound.test(line)) ?? '';
    const section = renderConsole(report).split('learned about the provider:\n')[1] ?? '';
    expect(section.split('\n\n')[0]?.split('\n')).toContain(`  ${text}`);
    expect(renderHtml(report)).toMatch(/<section id="learned"><h2>Learned about the provider<\/h2>.*<li>/s);
    expect(JSON.parse(renderJson(report)).learned.bounds).toEqual(report.learned?.bounds);
  });
});

// The bank sandbox written from the description alone, in a variant the space cannot express: each
// transfer rail keeps its own amount and name limits, both ways, and one body may break two at once.
describe(`a bank sandbox whose rails keep their own limits (seed ${SEED})`, () => {
  it('passes positive.accepted and names a bound per rail', async () => {
    const sandbox = await startBankSandbox({ railLimits: true });
    try {
      const report = await runChecks({
        target: resolveTargetConfig({ target: sandbox.url, ...sandbox }),
        seed: SEED,
        rules: ['positive.accepted'],
      });
      expect(failuresOf(report)).toEqual([]);
      expect(learned(report).sort()).toEqual([
        'usdTransfer ACH amount: refused above 25000.00',
        'usdTransfer ACH recipient_name: refused longer than 22 characters',
        'usdTransfer WIRE amount: refused below 1.00',
        'usdTransfer WIRE recipient_name: refused longer than 35 characters',
      ]);
    } finally {
      await sandbox.close();
    }
  });
});
