import { randomBytes } from 'node:crypto';
import { signWebhook, WEBHOOK_TOLERANCE_SECONDS } from '../../http/index.ts';
import type { RuleCategory } from '../report/report.ts';

/** One message sent to the receiver: the real headers, and the headers as a report may show them. */
export interface WebhookSend {
  readonly headers: Readonly<Record<string, string>>;
  /** The same headers with every signature replaced by what it was made with: never an HMAC. */
  readonly shown: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What a case expects of the receiver's answer to each of its sends. */
export type Expectation = 'acknowledge' | 'refuse';

/** One thing `pacu webhooks check` asks of a receiver, for each event type. */
export interface WebhookCase {
  readonly id: string;
  readonly category: Extract<RuleCategory, 'delivery' | 'signature' | 'timestamp'>;
  readonly title: string;
  readonly expect: Expectation;
  /** The messages to send in order; the case holds when every answer meets `expect`. */
  sends(event: EventToSend): WebhookSend[];
}

/** An event of the spec's, ready to sign. */
export interface EventToSend {
  readonly body: string;
  readonly secret: string;
  /** The receiver's clock is assumed to be ours: wall-clock unix seconds now. */
  readonly nowSeconds: number;
}

/** Stale and far-future timestamps sit well past the 5-minute tolerance, so clock skew cannot blur them. */
export const TIMESTAMP_OFFSET_SECONDS = 2 * WEBHOOK_TOLERANCE_SECONDS;

const messageId = (): string => `msg_pacu_check_${randomBytes(9).toString('base64url')}`;
const otherSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

interface Signer {
  readonly label: string;
  readonly secret: string;
  /** Sign this text instead of the body sent (a tampered message). */
  readonly over?: string;
}

function message(
  event: EventToSend,
  options: { id?: string; at?: number; signers: Signer[]; body?: string },
): WebhookSend {
  const id = options.id ?? messageId();
  const at = options.at ?? event.nowSeconds;
  const body = options.body ?? event.body;
  const base = { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(at) };
  if (options.signers.length === 0) return { headers: base, shown: base, body };
  const signatures = options.signers.map((signer) => signWebhook(signer.secret, id, at, signer.over ?? body));
  return {
    headers: { ...base, 'webhook-signature': signatures.join(' ') },
    shown: {
      ...base,
      'webhook-signature': options.signers.map((signer) => `v1,<${signer.label}>`).join(' '),
    },
    body,
  };
}

const yours = (event: EventToSend): Signer => ({ label: 'HMAC under --secret', secret: event.secret });

/** The body with one more field in `data`: what an attacker who altered a signed message would send. */
function tampered(body: string): string {
  const parsed = JSON.parse(body) as { data?: Record<string, unknown> };
  return JSON.stringify({ ...parsed, data: { ...parsed.data, tampered_by: 'pacu webhooks check' } });
}

/** Every case, in the order they run against each event type. The first must acknowledge. */
export const WEBHOOK_CASES: readonly WebhookCase[] = [
  {
    id: 'webhooks.signed-accepted',
    category: 'delivery',
    title: 'a correctly signed event is acknowledged (2xx) within the timeout',
    expect: 'acknowledge',
    sends: (event) => [message(event, { signers: [yours(event)] })],
  },
  {
    id: 'webhooks.redelivery-accepted',
    category: 'delivery',
    title: 'a redelivery of the same webhook-id is acknowledged again (senders retry until they see 2xx)',
    expect: 'acknowledge',
    sends: (event) => {
      const id = messageId();
      return [
        message(event, { id, signers: [yours(event)] }),
        message(event, { id, signers: [yours(event)] }),
      ];
    },
  },
  {
    id: 'webhooks.rotated-secret-accepted',
    category: 'delivery',
    title: 'a message with two signatures (an old secret first, then the valid one) is accepted',
    expect: 'acknowledge',
    sends: (event) => [
      message(event, {
        signers: [{ label: 'HMAC under an old secret', secret: otherSecret() }, yours(event)],
      }),
    ],
  },
  {
    id: 'webhooks.unsigned-refused',
    category: 'signature',
    title: 'an event without webhook-signature is refused (non-2xx)',
    expect: 'refuse',
    sends: (event) => [message(event, { signers: [] })],
  },
  {
    id: 'webhooks.bad-signature-refused',
    category: 'signature',
    title: 'an event whose body was altered after signing is refused',
    expect: 'refuse',
    sends: (event) => [
      message(event, {
        body: tampered(event.body),
        signers: [
          {
            label: 'HMAC under --secret of the body before it was altered',
            secret: event.secret,
            over: event.body,
          },
        ],
      }),
    ],
  },
  {
    id: 'webhooks.wrong-secret-refused',
    category: 'signature',
    title: 'an event signed with another secret is refused',
    expect: 'refuse',
    sends: (event) => [
      message(event, { signers: [{ label: 'HMAC under another secret', secret: otherSecret() }] }),
    ],
  },
  {
    id: 'webhooks.stale-refused',
    category: 'timestamp',
    title: `a correctly signed event whose timestamp is ${TIMESTAMP_OFFSET_SECONDS / 60} minutes old is refused (tolerance 5 minutes)`,
    expect: 'refuse',
    sends: (event) => [
      message(event, { at: event.nowSeconds - TIMESTAMP_OFFSET_SECONDS, signers: [yours(event)] }),
    ],
  },
  {
    id: 'webhooks.future-refused',
    category: 'timestamp',
    title: `a correctly signed event timestamped ${TIMESTAMP_OFFSET_SECONDS / 60} minutes ahead is refused`,
    expect: 'refuse',
    sends: (event) => [
      message(event, { at: event.nowSeconds + TIMESTAMP_OFFSET_SECONDS, signers: [yours(event)] }),
    ],
  },
];
