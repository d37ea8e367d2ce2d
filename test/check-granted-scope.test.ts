import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Report } from '../suites/index.ts';
import { cardIdArgs, checkArgs, provider, run, tempDir } from './helpers/check-run.ts';
import type { TestProviderOptions } from './providers/provider-glossary.ts';

/** `pacu check --profile strict` against a test provider; the auth.scope-enforced cells of its json report. */
async function scopeEnforcedCells(options: TestProviderOptions) {
  const target = await provider(options);
  const file = `${tempDir()}/report.json`;
  const result = await run([
    ...checkArgs(target),
    ...cardIdArgs(target),
    '--control-url',
    target.origin,
    '--profile',
    'strict',
    '--runs',
    '3',
    // Pinned: three drawn token requests of a random seed may all ask for every scope, and then
    // none asks for less than a provider granting every scope grants.
    '--seed',
    '1',
    '--reporter',
    `json:${file}`,
    '--reporter',
    'console',
  ]);
  const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
  const cells = report.rules.filter((rule) => rule.id === 'auth.scope-enforced');
  expect(cells.length).toBeGreaterThan(0);
  return { result, cells, report };
}

// The description: "The granted scope is echoed in the scope field of the response." A target may
// grant more than asked; a token that holds the operation's scope is then rightly accepted.
describe('auth.scope-enforced judges the scope the target granted, not the one pacu asked for', () => {
  it('a provider granting every scope of the client whatever is asked: a skip with the true reason, no failure', async () => {
    const { result, cells } = await scopeEnforcedCells({ style: 'pacu', grantsEveryScope: true });
    expect(cells.filter((cell) => cell.status === 'failed')).toEqual([]);
    for (const cell of cells) {
      expect(cell.status).toBe('skipped');
      expect(cell.skipReason).toMatch(
        /^the target granted scope card,us_account when asked for (card|us_account): pacu cannot hold a token without (us_account|card)$/,
      );
    }
    expect(result.stdout).toContain('the target granted scope card,us_account when asked for');
  });

  it('granting more than asked breaks only a pacu decision: auth.token-grant fails it as strict', async () => {
    const { report } = await scopeEnforcedCells({ style: 'pacu', grantsEveryScope: true });
    const grant = report.rules.find((rule) => rule.id === 'auth.token-grant');
    expect(grant?.failure).toMatchObject({
      profile: 'strict',
      reason: expect.stringMatching(/is "card,us_account": more than asked \(pacu's decision\)$/),
    });
  });

  it('a provider granting only what is asked but not enforcing it still fails', async () => {
    const { cells } = await scopeEnforcedCells({ style: 'pacu', breaks: 'auth.scope-enforced' });
    expect(cells.filter((cell) => cell.status === 'failed').length).toBeGreaterThan(0);
    for (const cell of cells) expect(cell.status).not.toBe('skipped');
  });
});
