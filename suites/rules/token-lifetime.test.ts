import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResponse } from '../target/api-request.ts';
import { tokenLifetimeRule } from './token-lifetime.ts';

const answer = (status: number): ApiResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  text: '{}',
  json: {},
  durationMs: 1,
});

/** The rule's kit, as far as it reads it: the oldest token `ageMs` old, its answer `delayMs` late. */
function kitWith(ageMs: number, lifeMs: number, delayMs: number) {
  return {
    heldTokens: {
      oldest: { token: 'old', scopes: ['us_account'], issuedAt: performance.now() - ageMs, lifeMs },
    },
    validBodies: () => fc.constant({ reference: 'r', amount: 1 }),
    seed: 1,
    referenceFor: () => 'r-fresh',
    path: '/payments/usd/direct',
    once: <T>(run: () => Promise<T>) => run(),
    tokens: { get: async () => 'new' },
    // The provider refuses the old token (on its clock it has run out by then) and lets a new one in.
    sendRaw: async (request: ApiRequest) => {
      if (request.headers.authorization !== 'Bearer old') return answer(200);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return answer(403);
    },
  };
}

describe('auth.token-refused-early', () => {
  it('holds a refusal against the provider only when the token was surely alive when the answer came', async () => {
    // Chosen 0.7 s into a 2 s life, answered 0.4 s later: past the second the rule leaves, so not early.
    expect(await tokenLifetimeRule.run(kitWith(700, 2000, 400) as never)).toEqual({ ok: true });
  });

  it('still fails a provider that refuses a token well inside its life', async () => {
    const verdict = (await tokenLifetimeRule.run(kitWith(100, 2000, 0) as never)) as unknown as {
      ok: boolean;
      reason?: string;
    };
    expect(verdict.ok).toBe(false);
    expect(verdict.reason).toMatch(
      /^a token issued 0\.\d s earlier with expires_in_seconds 2 was refused with HTTP 403/,
    );
  });
});
