import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import type { Report } from '../suites/index.ts';
import { checkArgs } from './helpers/check-run.ts';
import { TEST_SEED } from './providers/run-against.ts';
import { startTestProvider, type TestProvider } from './providers/test-provider.ts';

let provider: TestProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

describe('no reporter writes a credential (finding 11)', () => {
  it('a failing run: every report file and the console lack the secret, its Basic form and every token', async () => {
    // Breaks that put each secret into evidence: a token request (Basic), a token response (access_token),
    // a bearer request (the token itself).
    provider = await startTestProvider({
      style: 'different',
      breaks: ['auth.token-grant', 'auth.token-refusals', 'positive.echoes-request', 'envelope.content-type'],
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'pacu-secrets-'));
    const files = {
      json: `${dir}/r.json`,
      junit: `${dir}/r.xml`,
      html: `${dir}/r.html`,
      markdown: `${dir}/r.md`,
    };
    let console = '';
    const exitCode = await main(
      [
        ...checkArgs(provider),
        ...Object.entries(provider.ids).flatMap(([key, value]) => [
          `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
          value,
        ]),
        '--seed',
        String(TEST_SEED),
        '--runs',
        '5',
        '--reporter',
        'console',
        ...Object.entries(files).flatMap(([kind, file]) => ['--reporter', `${kind}:${file}`]),
      ],
      { stdout: (text) => (console += text), stderr: (text) => (console += text) },
    );
    expect(exitCode).toBe(1);
    const secret = provider.client.clientSecret;
    const basic = Buffer.from(`${provider.client.clientId}:${secret}`).toString('base64');
    const forbidden = [secret, basic, ...provider.issuedTokens];
    expect(provider.issuedTokens.length).toBeGreaterThan(0);
    const outputs: Record<string, string> = {
      console,
      ...Object.fromEntries(Object.entries(files).map(([k, f]) => [k, readFileSync(f, 'utf8')])),
    };
    for (const [where, text] of Object.entries(outputs))
      for (const value of forbidden) expect(text.includes(value), `${where} holds ${value}`).toBe(false);

    const report = JSON.parse(outputs.json ?? '{}') as Report;
    const curls = report.rules.flatMap((rule) => (rule.failure ? [rule.failure.curl] : []));
    expect(curls.some((curl) => curl.includes('-u "$PACU_CLIENT_ID:$PACU_CLIENT_SECRET"'))).toBe(true);
    expect(curls.some((curl) => curl.includes('"authorization: Bearer $PACU_TOKEN"'))).toBe(true);
    expect(console).toContain('PACU_TOKEN=$(curl');
  });
});
