import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { main } from '../../cli/main.ts';
import type { TestProviderOptions } from '../providers/provider-glossary.ts';
import { startTestProvider, type TestProvider } from '../providers/test-provider.ts';

/** Servers a test started; closed after each test. */
export const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Run `pacu` in-process with extra environment variables (credentials for a replay line). */
export async function run(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const exitCode = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    return { exitCode, stdout, stderr };
  } finally {
    for (const key of Object.keys(env)) if (saved[key] === undefined) delete process.env[key];
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
