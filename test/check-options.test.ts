import { describe, expect, it } from 'vitest';
import { resolveVerifyOptions, VERIFY_DEFAULTS } from '../contracts/index.ts';
import { loadSpec } from '../spec/index.ts';
import { CHECK_DEFAULTS, resolveCheckOptions } from '../suites/runner/check-options.ts';
import { API_CLIENT_DEFAULTS } from '../suites/target/api-client.ts';
import { resolveTargetConfig } from '../suites/target/target-config.ts';
import { runCli } from './helpers/run-cli.ts';

// Options are resolved once into a fully set object whose defaults live in one
// exported constant, and `--help` shows those same defaults.

const target = resolveTargetConfig({ target: 'http://127.0.0.1:1/v3' });

describe('resolveCheckOptions', () => {
  it('sets every option once, from CHECK_DEFAULTS', async () => {
    const resolved = await resolveCheckOptions({ target });
    expect(resolved).toMatchObject({
      profile: CHECK_DEFAULTS.profile,
      runs: CHECK_DEFAULTS.runs,
      concurrency: CHECK_DEFAULTS.concurrency,
      word: CHECK_DEFAULTS.word,
      spec: await loadSpec(),
    });
    expect(Number.isInteger(resolved.seed)).toBe(true);
  });

  it('keeps what was given', async () => {
    const resolved = await resolveCheckOptions({
      target,
      profile: 'strict',
      runs: 3,
      seed: 7,
      concurrency: 1,
    });
    expect(resolved).toMatchObject({ profile: 'strict', runs: 3, seed: 7, concurrency: 1 });
  });
});

describe('verify defaults', () => {
  it('the timeout has one home, the API client', () => {
    expect(VERIFY_DEFAULTS.timeoutMs).toBe(API_CLIENT_DEFAULTS.timeoutMs);
    expect(resolveVerifyOptions({ target })).toMatchObject({
      timeoutMs: API_CLIENT_DEFAULTS.timeoutMs,
      profile: VERIFY_DEFAULTS.profile,
      word: VERIFY_DEFAULTS.word,
    });
  });
});

describe('--help shows the defaults from the constants', () => {
  it('pacu check', async () => {
    const { stdout } = await runCli(['check', '--help']);
    expect(stdout).toContain(`(default: ${CHECK_DEFAULTS.runs})`);
    expect(stdout).toContain(`(default: ${CHECK_DEFAULTS.concurrency})`);
    expect(stdout).toContain(`(default: ${API_CLIENT_DEFAULTS.timeoutMs})`);
  });
});
