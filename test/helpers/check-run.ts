import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProviderOptions } from '../providers/provider-glossary.ts';
import { startTestProvider, type TestProvider } from '../providers/test-provider.ts';
import { runCli } from './run-cli.ts';

/** Servers a test started; test/helpers/each-file.ts closes them after each test. */
export const closers: Array<() => Promise<unknown>> = [];

/** Run `pacu` in-process with extra environment variables (credentials for a replay line). */
export async function run(args: string[], env: Record<string, string> = {}) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const { code, stdout, stderr } = await runCli(args);
    return { exitCode: code, stdout, stderr };
  } finally {
    for (const key of Object.keys(env)) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  }
}

/** A test provider closed after the test. */
export async function provider(options: TestProviderOptions): Promise<TestProvider> {
  const started = await startTestProvider(options);
  closers.push(() => started.close());
  return started;
}

export const oneLine = (stderr: string): string[] => stderr.trim().split('\n');
export const tempDir = (): string => mkdtempSync(path.join(tmpdir(), 'pacu-verdicts-'));

/** `pacu check` against a test provider with its client's credentials; more flags follow. */
export const checkArgs = (target: TestProvider): string[] => [
  'check',
  '--target',
  target.url,
  '--client-id',
  target.client.clientId,
  '--client-secret',
  target.client.clientSecret,
];

/** The card ids of a test provider as `pacu check` flags (no operation creates a card). */
export const cardIdArgs = (target: TestProvider): string[] => [
  '--card-id',
  target.ids.cardId,
  '--card-transaction-id',
  target.ids.cardTransactionId,
  '--push-to-card-id',
  target.ids.pushToCardId,
];
