// A replay whose failure does not come back says so, with what differed, and
// exits 3: CI can tell a flaky verdict (a transient fault) from a fixed one.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_NOT_REPRODUCED } from '../cli/exit-codes.ts';
import { type RunningMock, startMock } from '../mock/index.ts';
import type { Report } from '../suites/index.ts';
import { run, tempDir } from './helpers/check-run.ts';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ clock: 'manual', log: () => {} });
});
afterAll(() => mock.close());

const flags = (): string[] => [
  'check',
  '--target',
  mock.url,
  '--control-url',
  mock.origin,
  '--client-id',
  mock.demoClient.clientId,
  '--client-secret',
  mock.demoClient.clientSecret,
  '--rule',
  'positive.accepted',
  '--seed',
  '7',
  '--runs',
  '3',
];

describe('a replay that does not reproduce', () => {
  it('says "did not reproduce" with what failed before and exits 3', async () => {
    // A transient fault: the first p2p status read answers 500, every later one is right.
    mock.control.addFault({ operation: 'getP2pStatus', kind: 'status', status: 500, times: 1 });
    const dir = tempDir();
    const first = await run([...flags(), '--reporter', 'console', '--reporter', `json:${dir}/r.json`]);
    expect(first.exitCode, first.stderr).toBe(1);
    const failure = (JSON.parse(readFileSync(`${dir}/r.json`, 'utf8')) as Report).rules.find(
      (rule) => rule.failure,
    )?.failure;
    expect(failure?.response?.status).toBe(500);

    const again = await run([...flags(), '--replay', failure?.id ?? '', '--report-file', `${dir}/r.json`]);
    expect(again.exitCode, again.stderr).toBe(EXIT_NOT_REPRODUCED);
    expect(EXIT_NOT_REPRODUCED).toBe(3);
    expect(again.stdout).toContain(`did not reproduce: ${failure?.id}`);
    // What differed: the answer that failed before, and that the rule held this time.
    expect(again.stdout).toMatch(/before: status 500/);
    expect(again.stdout).toMatch(/now: the rule held/);
  });

  it('without the report: still "did not reproduce", exit 3', async () => {
    mock.control.addFault({ operation: 'getP2pStatus', kind: 'status', status: 500, times: 1 });
    const dir = tempDir();
    await run([...flags(), '--reporter', `json:${dir}/r.json`]);
    const id = (JSON.parse(readFileSync(`${dir}/r.json`, 'utf8')) as Report).rules.find(
      (rule) => rule.failure,
    )?.failure?.id;
    const again = await run([...flags(), '--replay', id ?? '']);
    expect(again.exitCode).toBe(3);
    expect(again.stdout).toContain(`did not reproduce: ${id}`);
  });
});
