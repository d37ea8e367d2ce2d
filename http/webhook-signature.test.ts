import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook, webhookHeaders, webhookSignatureProblem } from './webhook-signature.ts';

describe('Standard Webhooks signature', () => {
  it('reproduces the published test vector', () => {
    const signature = signWebhook(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs exactly as the reference library (standardwebhooks) does, and verifies what it signs', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 24, maxLength: 64 }),
        fc.stringMatching(/^msg_[A-Za-z0-9]{1,30}$/),
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.string(),
        (key, id, time, body) => {
          const secret = `whsec_${Buffer.from(key).toString('base64')}`;
          const theirs = new Webhook(secret).sign(id, new Date(time * 1000), body);
          const ours = webhookHeaders(secret, id, time, body);
          return (
            ours['webhook-signature'] === theirs &&
            webhookSignatureProblem({ ...ours, 'webhook-signature': theirs }, body, secret) === undefined
          );
        },
      ),
      { seed: 7 },
    );
  });

  it('keys a plain secret with its UTF-8 bytes and covers id, timestamp and body', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string(),
        fc.nat(),
        fc.string(),
        (secret, id, time, body) => {
          fc.pre(!secret.startsWith('whsec_'));
          const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
            .update(`${id}.${time}.${body}`)
            .digest('base64');
          return (
            signWebhook(secret, id, time, body) === `v1,${expected}` &&
            signWebhook(secret, id, time, `${body}x`) !== `v1,${expected}`
          );
        },
      ),
      { seed: 7 },
    );
  });

  it('accepts any one matching v1 signature among several (secret rotation) and nothing else', () => {
    const body = '{"type":"p2p.validated"}';
    const old = webhookHeaders('whsec_b2xkLW9sZC1vbGQtb2xkLW9sZC1vbGQ=', 'msg_1', 100, body);
    const current = webhookHeaders('whsec_bmV3LW5ldy1uZXctbmV3LW5ldy1uZXc=', 'msg_1', 100, body);
    const both = `${old['webhook-signature']} ${current['webhook-signature']}`;
    const secret = 'whsec_bmV3LW5ldy1uZXctbmV3LW5ldy1uZXc=';
    expect(webhookSignatureProblem({ ...current, 'webhook-signature': both }, body, secret)).toBeUndefined();
    expect(webhookSignatureProblem(old, body, secret)).toMatch(/does not match/);
    expect(webhookSignatureProblem(current, `${body} `, secret)).toMatch(/does not match/);
    expect(webhookSignatureProblem({ 'webhook-id': 'msg_1' }, body, secret)).toMatch(/missing/);
  });
});
