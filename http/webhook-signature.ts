import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signing, the scheme the spec's webhook decision names. One home for both sides:
 * the mock signs its deliveries with it, `pacu check` verifies what a target delivers, and
 * `pacu webhooks check` signs the events it sends to a merchant's receiver.
 */

/** How far a `webhook-timestamp` may be from the receiver's clock (Standard Webhooks: 5 minutes). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Why `secret` cannot sign or verify deliveries, or undefined: the one rule of `pacu mock`, its
 * control API, `pacu check` and `pacu webhooks check`. A secret is a non-empty string; one that
 * starts `whsec_` is a Standard Webhooks secret, so what follows is base64 of at least one byte.
 */
export function webhookSecretProblem(secret: unknown): string | undefined {
  if (typeof secret !== 'string' || secret === '')
    return 'is missing: give the secret the receiver verifies with';
  if (!secret.startsWith('whsec_')) return undefined;
  const encoded = secret.slice(6);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.replace(/=+$/, '').length % 4 === 1)
    return 'must be base64 after whsec_ (as Standard Webhooks secrets are), e.g. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  return undefined;
}

/** The HMAC key of a secret: base64 after `whsec_` (Standard Webhooks), else its UTF-8 bytes. */
export function webhookSecretKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

/** The `webhook-signature` header value: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  return `v1,${digest(secret, id, String(timestampSeconds), body).toString('base64')}`;
}

const digest = (secret: string, id: string, timestamp: string, body: string): Buffer =>
  createHmac('sha256', webhookSecretKey(secret)).update(`${id}.${timestamp}.${body}`).digest();

/** The three headers of a signed delivery (lower-case names). */
export type SignedWebhookHeaders = {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
};

/** Headers that sign `body` as message `id` at `timestampSeconds` (wall-clock unix seconds). */
export function webhookHeaders(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): SignedWebhookHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(secret, id, timestampSeconds, body),
  };
}

/**
 * Why a delivery's signature does not hold, or undefined when one of the space-separated
 * `v1,<base64>` signatures is the HMAC of `id.timestamp.body` under the secret. The timestamp is
 * only checked for form: a delivery pacu recorded earlier is judged by its signature alone.
 */
export function webhookSignatureProblem(
  headers: Readonly<Record<string, string | undefined>>,
  body: string,
  secret: string,
): string | undefined {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures)
    return 'webhook-id, webhook-timestamp or webhook-signature is missing';
  if (!/^[0-9]+$/.test(timestamp)) return `webhook-timestamp ${timestamp} is not whole seconds`;
  const expected = digest(secret, id, timestamp, body);
  const matches = signatures.split(' ').some((entry) => {
    const [version, value = ''] = entry.split(',');
    const given = Buffer.from(value, 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? undefined : `webhook-signature ${signatures} does not match the secret`;
}
