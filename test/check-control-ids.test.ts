import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { type Report, resolveTargetConfig, runChecks } from '../suites/index.ts';
import { run, tempDir } from './helpers/check-run.ts';
import { TEST_SEED } from './providers/run-against.ts';

// The library run given a pacu mock's control URL takes the card and
// push-to-card ids from its control API, as the CLI does, and words a missing setting as an option.

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ clock: 'manual', log: () => {} });
});
afterAll(() => mock.close());

const skips = (report: Report): number => report.rules.filter((rule) => rule.status === 'skipped').length;

describe('runChecks with a controlUrl and no ids', () => {
  it('skips no more than pacu check on the embedded mock', async () => {
    const library = await runChecks({
      target: resolveTargetConfig({
        target: mock.url,
        clientId: mock.demoClient.clientId,
        clientSecret: mock.demoClient.clientSecret,
        controlUrl: mock.origin,
      }),
      seed: TEST_SEED,
      runs: 2,
    });
    const file = `${tempDir()}/report.json`;
    const cli = await run([
      'check',
      '--seed',
      String(TEST_SEED),
      '--runs',
      '2',
      '--reporter',
      `json:${file}`,
    ]);
    expect(cli.exitCode, cli.stderr).toBe(0);
    const reported = JSON.parse(readFileSync(file, 'utf8')) as Report;
    expect(skips(library)).toBe(skips(reported));
    expect(
      library.rules.find((rule) => rule.id === 'positive.accepted' && rule.operation === 'getVirtualCard'),
    ).toMatchObject({ status: 'passed' });
  });

  it('words a missing id as the option that gives it, and the CLI as its flag', async () => {
    const target = resolveTargetConfig({
      target: mock.url,
      clientId: mock.demoClient.clientId,
      clientSecret: mock.demoClient.clientSecret,
    });
    const report = await runChecks({ target, seed: TEST_SEED, runs: 2, rules: ['positive.accepted'] });
    const card = report.rules.find((rule) => rule.operation === 'getVirtualCard');
    expect(card?.skipReason).toBe('needs target.ids.cardId (no operation creates the record it names)');
    expect(JSON.stringify(report)).not.toContain('--card-id');
  });
});
