import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTING_FLAGS } from '../cli/setting-flags.ts';
import { startMock } from '../mock/index.ts';
import type { Report, RuleResult, TargetIds } from '../suites/index.ts';
import { checkArgs, closers, provider, run, tempDir } from './helpers/check-run.ts';
import { TEST_SEED } from './providers/run-against.ts';

const report = (file: string): Report => JSON.parse(readFileSync(file, 'utf8')) as Report;
const errorShapeFailures = (of: Report): RuleResult[] =>
  of.rules.filter((rule) => rule.id === 'envelope.error-shape' && rule.status === 'failed');

/** The replay line printed for `id`, as words (no word of it needs shell quoting). */
function replayLine(stdout: string, id: string): string[] {
  const line = stdout.split('\n').find((text) => text.includes(`replay:   pacu check --replay ${id} `)) ?? '';
  return line.replace(/^.*replay: +pacu /, '').split(' ');
}

/** `words` with each `--flag value` in `values` replaced. */
function withFlags(words: readonly string[], values: Record<string, string>): string[] {
  return words.map((word, index) => values[words[index - 1] ?? ''] ?? word);
}

// Which rule's answer error-shape reports first depends on which rules ran: leaving some out lets the
// 403, 409 and 413 answers of scope-enforced, idempotency and limits be the ones judged.
const SELECTIONS = [[], ['--exclude-rule', 'auth.bearer-required'], ['--exclude-rule', 'auth']];

describe('an error answer judged by envelope.error-shape replays the case that received it', () => {
  it('the printed line reruns that case and fails again; against a fixed provider and the mock it passes', async () => {
    // Refusals of bad input (400) are fine: the 401, 403, 409 and 413 answers carry no envelope.
    const broken = await provider({ style: 'pacu', brokenErrorStatuses: [401, 403, 409, 413] });
    const fixed = await provider({ style: 'pacu' });
    const mock = await startMock({ log: () => {} });
    closers.push(() => mock.close());
    const env = { PACU_CLIENT_ID: broken.client.clientId, PACU_CLIENT_SECRET: broken.client.clientSecret };
    const statuses = new Set<number>();
    for (const selection of SELECTIONS) {
      const dir = tempDir();
      const first = await run([
        ...checkArgs(broken),
        '--profile',
        'strict',
        '--seed',
        String(TEST_SEED),
        '--runs',
        '6',
        ...selection,
        '--reporter',
        'console',
        '--reporter',
        `json:${dir}/r.json`,
      ]);
      expect(first.exitCode, first.stderr).toBe(1);
      const failures = errorShapeFailures(report(`${dir}/r.json`));
      const received = failures.filter((rule) => rule.failure?.id.includes('@'));
      expect(received.length, selection.join(' ')).toBeGreaterThan(0);
      for (const rule of received) statuses.add(rule.failure?.response?.status ?? 0);
      for (const { operation, failure } of failures) {
        const id = failure?.id ?? '';
        // The id names the case that received the answer (another rule's, or error-shape's own refusal
        // of a bad request, as on the token endpoint), with its seed and path.
        expect(id).toMatch(
          new RegExp(`^envelope\\.error-shape(@[a-z-]+\\.[a-z-]+)?/${operation}/${TEST_SEED}/`),
        );
        const line = replayLine(first.stdout, id);
        expect(line.slice(0, 3)).toEqual(['check', '--replay', id]);

        const again = await run([...line, '--reporter', `json:${dir}/again.json`], env);
        expect(again.exitCode, `${id}\n${again.stdout}${again.stderr}`).toBe(1);
        const replayed = errorShapeFailures(report(`${dir}/again.json`)).map((rule) => rule.failure);
        expect(replayed.map((again) => [again?.id, again?.reason])).toEqual([[id, failure?.reason]]);

        const fromReport = await run(['check', '--replay', id, '--report-file', `${dir}/r.json`], env);
        expect(fromReport.exitCode, `${id}\n${fromReport.stdout}`).toBe(1);

        // The case holds on a fixed provider: the replay says it did not reproduce (exit 3, not 0:
        // one rerun cannot tell a fix from a flaky failure).
        const passes = await run(withFlags(line, { '--target': fixed.url }), env);
        expect(passes.exitCode, `${id} against a fixed provider\n${passes.stdout}${passes.stderr}`).toBe(3);
        expect(passes.stderr + passes.stdout).toContain(`did not reproduce: ${id}`);
      }
      // The pacu mock, with its own ids and client: the same case, a correct envelope.
      const seeded = { ...mock.seeded, accountId: mock.seeded.merchantAccountId };
      const mockFlags: Record<string, string> = { '--target': mock.url };
      for (const key of Object.keys(seeded) as (keyof TargetIds)[])
        if (`ids.${key}` in SETTING_FLAGS)
          mockFlags[SETTING_FLAGS[`ids.${key}` as keyof typeof SETTING_FLAGS]] = seeded[key] ?? '';
      const onMock = await run(
        withFlags(replayLine(first.stdout, received[0]?.failure?.id ?? ''), mockFlags),
        {
          PACU_CLIENT_ID: mock.demoClient.clientId,
          PACU_CLIENT_SECRET: mock.demoClient.clientSecret,
        },
      );
      expect(onMock.exitCode, onMock.stdout + onMock.stderr).toBe(3);
    }
    expect([...statuses].sort()).toEqual([401, 403, 409, 413]);
  });
});
