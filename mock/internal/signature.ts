import { createHmac } from 'node:crypto';

/** The HMAC key of a receiver's secret: base64 after `whsec_` (Standard Webhooks), else its UTF-8 bytes. */
export function secretKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

/** The `webhook-signature` header value: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const digest = createHmac('sha256', secretKey(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${digest}`;
}
