import { errorEnvelope, isControlPath } from '../../http/index.ts';
import type { MockReply } from './http-types.ts';

// Every answer the mock builds comes from here: the interface's envelope for /v3 and for anything
// the transport refuses, `{ error }` for the control API (so nobody mistakes it for /v3).

/** The interface's error envelope: `success: false` and a message. */
export function errorReply(status: number, message: string, headers?: Record<string, string>): MockReply {
  return { status, body: errorEnvelope(message), ...(headers ? { headers } : {}) };
}

/** The interface's success envelope. */
export function okReply(message: string, data: unknown): MockReply {
  return { status: 200, body: { success: true, message, data } };
}

/**
 * The success envelope of a list, rendered from each item's cached JSON text: `data` is `items`
 * followed by `fields` (numbers). Equal to JSON.stringify of the body, without walking the items.
 */
export function okListReply(
  message: string,
  items: readonly object[],
  fields: Readonly<Record<string, number>>,
  render: (item: object) => string,
): MockReply {
  let rendered = '';
  for (let index = 0; index < items.length; index++)
    rendered += `${index > 0 ? ',' : ''}${render(items[index] as object)}`;
  let rest = '';
  for (const [name, value] of Object.entries(fields))
    rest += `,${JSON.stringify(name)}:${JSON.stringify(value)}`;
  return {
    status: 200,
    body: { success: true, message, data: { items, ...fields } },
    text: `{"success":true,"message":${JSON.stringify(message)},"data":{"items":[${rendered}]${rest}}}`,
  };
}

/** The JSON text of a reply's body, as it goes on the wire. */
export function replyText(reply: MockReply): string {
  if (reply.transport?.kind === 'raw') return reply.transport.body;
  return reply.text ?? JSON.stringify(reply.body);
}

/** A control API error: `{ error }`. */
export function controlErrorReply(
  status: number,
  message: string,
  headers?: Record<string, string>,
): MockReply {
  return { status, body: { error: message }, ...(headers ? { headers } : {}) };
}

/** An envelope for `path`: the control API's shape under /__pacu, the interface's elsewhere. */
export function errorFor(
  path: string,
  status: number,
  message: string,
  headers?: Record<string, string>,
): MockReply {
  return isControlPath(path)
    ? controlErrorReply(status, message, headers)
    : errorReply(status, message, headers);
}

/** The body is over the limit (`x-pacu-decisions/limits`). */
export function tooLargeReply(path: string, limit: number): MockReply {
  return errorFor(path, 413, `request body is over ${limit} bytes`);
}
