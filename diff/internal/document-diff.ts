import { collectDecisions } from '../../spec/index.ts';
import type { Origin } from '../glossary.ts';
import { asNode, type Description, type Node } from './description.ts';
import { type Emitter, list, type Place } from './emitter.ts';
import { diffContent } from './operation-diff.ts';
import { diffSchemas } from './schema-diff.ts';

const DOCUMENT: Place = { side: 'document', subject: 'the description', who: 'clients' };
const key = (name: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
const isDecision = (node: Node): boolean => typeof node['x-pacu-decision'] === 'string';

/** A scheme's identity: what a client must do differently when any of it changes. */
function schemeShape(scheme: Node): unknown {
  const flows = asNode(scheme.flows);
  return {
    type: scheme.type,
    scheme: typeof scheme.scheme === 'string' ? scheme.scheme.toLowerCase() : undefined,
    in: scheme.in,
    name: scheme.name,
    flows: Object.fromEntries(
      Object.entries(flows).map(([flow, value]) => [
        flow,
        { tokenUrl: asNode(value).tokenUrl, authorizationUrl: asNode(value).authorizationUrl },
      ]),
    ),
    openIdConnectUrl: scheme.openIdConnectUrl,
  };
}

/** Compare `components.securitySchemes`: schemes, and the scope names of every OAuth flow. */
export function diffSecuritySchemes(before: Node, after: Node, out: Emitter): void {
  const a = asNode(asNode(before.components).securitySchemes);
  const b = asNode(asNode(after.components).securitySchemes);
  for (const [name, raw] of Object.entries(a)) {
    const path = `$.components.securitySchemes${key(name)}`;
    if (!(name in b)) {
      out.emit('security-scheme-removed', 'description', DOCUMENT, {
        path,
        before: name,
        message: `the security scheme ${name} is gone: clients that authenticate with it are refused`,
      });
      continue;
    }
    const old = asNode(raw);
    const now = asNode(b[name]);
    if (JSON.stringify(schemeShape(old)) !== JSON.stringify(schemeShape(now)))
      out.emit('security-scheme-changed', 'description', DOCUMENT, {
        path,
        before: schemeShape(old),
        after: schemeShape(now),
        message: `the security scheme ${name} changes how clients authenticate (type, scheme or token URL): clients that authenticate the old way are refused`,
      });
    const nowFlows = asNode(now.flows);
    for (const [flow, value] of Object.entries(asNode(old.flows))) {
      const had = Object.keys(asNode(asNode(value).scopes));
      const has = Object.keys(asNode(asNode(nowFlows[flow]).scopes));
      const removed = had.filter((scope) => !has.includes(scope));
      const added = has.filter((scope) => !had.includes(scope));
      const at = `${path}.flows.${flow}.scopes`;
      if (removed.length === 1 && added.length === 1)
        out.emit('token-scope-renamed', 'description', DOCUMENT, {
          path: at,
          before: removed[0],
          after: added[0],
          message: `the token scope ${list(removed)} of ${name} is now ${list(added)}: clients that ask for ${list(removed)} get no token, and tokens of the old name are refused`,
        });
      else {
        for (const scope of removed)
          out.emit('token-scope-removed', 'description', DOCUMENT, {
            path: at,
            before: scope,
            message: `the token scope \`${scope}\` of ${name} is gone: clients that ask for it get no token`,
          });
        for (const scope of added)
          out.emit('token-scope-added', 'description', DOCUMENT, {
            path: at,
            after: scope,
            message: `${name} has a new token scope \`${scope}\``,
          });
      }
    }
  }
  for (const name of Object.keys(b))
    if (!(name in a))
      out.emit('security-scheme-added', 'description', DOCUMENT, {
        path: `$.components.securitySchemes${key(name)}`,
        after: name,
        message: `a new security scheme ${name}`,
      });
}

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
    const headers = (operation: Node): Map<string, Node> =>
      new Map(
        (Array.isArray(operation.parameters) ? operation.parameters.map(asNode) : []).map((p) => [
          `${p.in} ${p.name}`,
          p,
        ]),
      );
    const nowHeaders = headers(now);
    for (const [id, header] of headers(old)) {
      const next = nowHeaders.get(id);
      if (next)
        diffSchemas(
          header.schema,
          next.schema,
          `${path}.post.parameters`,
          {
            ...place,
            subject: `the ${event} webhook's ${header.in} \`${header.name}\``,
            root: `\`${String(header.name)}\``,
          },
          out,
        );
    }
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
