import { collectDecisions } from '../../spec/index.ts';
import type { Origin } from '../glossary.ts';
import { diffContent } from './body-diff.ts';
import { asNode, type Description, isDecision, key, type Node } from './description.ts';
import type { Emitter, Place } from './emitter.ts';
import { diffHeaders, headerParameters } from './header-diff.ts';

const WEBHOOK_HEADERS = {
  requiredRemoved: 'webhook-required-header-removed',
  optionalRemoved: 'webhook-optional-header-removed',
  added: 'webhook-header-added',
} as const;
const DOCUMENT: Place = { side: 'document', subject: 'the description', who: 'clients' };

/** The operation of a webhook's path item: `post`, or its first method. */
function webhookOperation(item: unknown): Node {
  const node = asNode(item);
  return asNode(node.post ?? Object.values(node).find((value) => asNode(value).requestBody !== undefined));
}

/** Compare `webhooks`: events added or removed, and each payload, read by the client's receiver. */
export function diffWebhooks(before: Node, after: Node, out: Emitter): void {
  const a = asNode(before.webhooks);
  const b = asNode(after.webhooks);
  for (const [event, item] of Object.entries(a)) {
    const old = webhookOperation(item);
    const path = `$.webhooks${key(event)}`;
    const ref = {
      kind: 'webhook' as const,
      event,
      ...(typeof old.operationId === 'string' ? { id: old.operationId } : {}),
    };
    if (!(event in b)) {
      out.emit(
        'webhook-removed',
        isDecision(old) ? 'decision' : 'description',
        { ...DOCUMENT, side: 'response', operation: ref },
        {
          path,
          before: event,
          message: `the ${event} webhook is gone: receivers that wait for it never hear of that event`,
        },
      );
      continue;
    }
    const now = webhookOperation(b[event]);
    // A webhook's mark covers the whole event (its name, payload and headers), unlike an operation's.
    const base: Origin = isDecision(now) ? 'decision' : 'description';
    const place: Place = {
      side: 'response',
      operation: ref,
      subject: `the ${event} webhook payload`,
      who: 'receivers',
      base,
    };
    diffContent(
      asNode(asNode(old.requestBody).content),
      asNode(asNode(now.requestBody).content),
      `${path}.post.requestBody.content`,
      place,
      out,
    );
    diffHeaders(
      headerParameters(old),
      headerParameters(now),
      `${path}.post.parameters`,
      { ...place, subject: `the ${event} webhook` },
      WEBHOOK_HEADERS,
      out,
    );
  }
  for (const [event, item] of Object.entries(b))
    if (!(event in a)) {
      const now = webhookOperation(item);
      out.emit(
        'webhook-added',
        isDecision(now) ? 'decision' : 'description',
        { ...DOCUMENT, side: 'response', operation: { kind: 'webhook', event } },
        {
          path: `$.webhooks${key(event)}`,
          after: event,
          message: `a new ${event} webhook: receivers with an exhaustive switch on the event type meet one they do not handle`,
        },
      );
    }
}

/** Compare pacu's decisions by what they say: inlining a $ref moves a mark but changes nothing. */
export function diffDecisions(before: Description, after: Description, out: Emitter): void {
  const a = collectDecisions(before.raw);
  const b = collectDecisions(after.raw);
  const reasons = (decisions: typeof a): Set<string> => new Set(decisions.map((d) => d.reason));
  const had = reasons(a);
  const has = reasons(b);
  const gone = a.filter((d) => !has.has(d.reason));
  const come = b.filter((d) => !had.has(d.reason));
  const pointerPath = (pointer: string): string =>
    `$${pointer
      .split('/')
      .slice(1)
      .map((token) => key(token.replace(/~1/g, '/').replace(/~0/g, '~')))
      .join('')}`;
  for (const decision of gone) {
    const replaced = come.find((d) => d.pointer === decision.pointer);
    if (replaced)
      out.emit('decision-changed', 'decision', DOCUMENT, {
        path: pointerPath(decision.pointer),
        before: decision.reason,
        after: replaced.reason,
        message: `pacu's decision at ${decision.pointer} now reads: ${replaced.reason}`,
      });
    else
      out.emit('decision-removed', 'decision', DOCUMENT, {
        path: pointerPath(decision.pointer),
        before: decision.reason,
        message: `pacu's decision at ${decision.pointer} is gone: ${decision.reason}`,
      });
  }
  for (const decision of come)
    if (!gone.some((d) => d.pointer === decision.pointer))
      out.emit('decision-added', 'decision', DOCUMENT, {
        path: pointerPath(decision.pointer),
        after: decision.reason,
        message: `pacu decides at ${decision.pointer}: ${decision.reason}`,
      });
  const limitsA = asNode(before.raw['x-pacu-limits']);
  const limitsB = asNode(after.raw['x-pacu-limits']);
  for (const [name, value] of Object.entries(limitsA)) {
    const next = limitsB[name];
    if (typeof value !== 'number' || typeof next !== 'number' || next === value) continue;
    out.emit(next < value ? 'decided-limit-lowered' : 'decided-limit-raised', 'decision', DOCUMENT, {
      path: `$['x-pacu-limits']${key(name)}`,
      before: value,
      after: next,
      message:
        next < value
          ? `pacu's limit ${name} drops from ${value} to ${next}: requests between the two are refused`
          : `pacu's limit ${name} rises from ${value} to ${next}`,
    });
  }
}

/** The path of the first server's URL (`/v3`): what every operation's path hangs from. */
function basePath(document: Node): string {
  const url = String(asNode((document.servers as unknown[] | undefined)?.[0]).url ?? '');
  const path = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? new URL(url).pathname : url;
  return path.replace(/\/$/, '');
}

/** A new base path (`/v3` to `/v4`) moves every operation at once: the description's own versioning. */
export function diffServers(before: Node, after: Node, out: Emitter): void {
  const from = basePath(before);
  const to = basePath(after);
  if (from !== to)
    out.emit('server-base-path-changed', 'description', DOCUMENT, {
      path: '$.servers[0].url',
      before: from,
      after: to,
      message: `every operation moves from ${from || '/'} to ${to || '/'}: clients that call the old paths get 404 until they move`,
    });
}
