import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_FILE } from '../spec/index.ts';
import { type Report, resolveTargetConfig, runChecks } from '../suites/index.ts';
import { freePort } from './helpers/free-port.ts';
import { TEST_SEED } from './providers/run-against.ts';

// The peer tool as a provider nobody on the team wrote: Stoplight's own `prism mock` of pacu's spec is
// stateless, answering the example transaction id whatever the reference.
const PRISM = fileURLToPath(new URL('../node_modules/.bin/prism', import.meta.url));

let prism: ChildProcess;
let url: string;

beforeAll(async () => {
  const port = await freePort();
  prism = spawn(PRISM, ['mock', '-h', '127.0.0.1', '-p', String(port), DEFAULT_SPEC_FILE], { stdio: 'pipe' });
  // prism serves the paths at its root, without the servers entry's /v3.
  url = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('prism mock did not start in 25 s')), 25_000);
    prism.stdout?.on('data', (chunk: Buffer) => {
      if (/Prism is listening/.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
    prism.on('exit', (code) => reject(new Error(`prism mock exited with ${code}`)));
  });
});
afterAll(async () => {
  if (!prism || prism.exitCode !== null || prism.signalCode !== null) return;
  const gone = new Promise((resolve) => prism.once('exit', resolve));
  prism.kill();
  await gone;
});

describe('against `prism mock spec/openapi.yaml` (stateless)', () => {
  it('the idempotency rules fail: the target does not keep references apart', async () => {
    const report: Report = await runChecks({
      target: resolveTargetConfig({ target: url, clientId: 'pacu-demo', clientSecret: 'pacu-demo-secret' }),
      seed: TEST_SEED,
      runs: 3,
      rules: [
        'idempotency.same-reference-replay',
        'idempotency.same-reference-different-body',
        'idempotency.concurrent-requests',
      ],
    });
    expect(report.rules.map((rule) => [rule.id, rule.status])).toEqual([
      ['idempotency.same-reference-replay', 'failed'],
      ['idempotency.same-reference-different-body', 'failed'],
      ['idempotency.concurrent-requests', 'failed'],
    ]);
    for (const rule of report.rules)
      expect(rule.failure?.reason).toMatch(
        /both got transaction txn_\w+: the target does not keep references apart/,
      );
  });
});
