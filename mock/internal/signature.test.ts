import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signWebhook } from './signature.ts';

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
});
