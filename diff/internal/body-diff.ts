import { asNode, isDecision, key, type Node } from './description.ts';
import { echoRequirement } from './echo-facts.ts';
import { type Emitter, operationName, type Place, requestPlace } from './emitter.ts';
import { diffHeaders } from './header-diff.ts';
import type { Operation } from './operation.ts';
import { diffSchemas } from './schema-diff.ts';

/** Compare the media types of two `content` maps, and the schemas of the ones both have. */
export function diffContent(before: Node, after: Node, path: string, place: Place, out: Emitter): void {
  const request = place.side === 'request';
  for (const [media, value] of Object.entries(before)) {
    const next = after[media];
    if (next === undefined) {
      out.emit(
        request ? 'request-media-type-removed' : 'response-media-type-removed',
        place.base ?? 'description',
        place,
        {
          path: `${path}${key(media)}`,
          before: media,
          message: request
            ? `${place.subject} no longer takes ${media}: ${place.who} that send it are refused`
            : `${place.subject} no longer comes as ${media}: ${place.who} that read it break`,
        },
      );
      continue;
    }
    diffSchemas(asNode(value).schema, asNode(next).schema, `${path}${key(media)}.schema`, place, out);
  }
  for (const media of Object.keys(after))
    if (!(media in before))
      out.emit(
        request ? 'request-media-type-added' : 'response-media-type-added',
        place.base ?? 'description',
        place,
        {
          path: `${path}${key(media)}`,
          after: media,
          message: `${place.subject} may also be ${media}`,
        },
      );
}

export function diffRequestBody(old: Operation, now: Operation, out: Emitter): void {
  const name = operationName(now.ref);
  const place = requestPlace(now.ref);
  const a = old.node.requestBody === undefined ? undefined : asNode(old.node.requestBody);
  const b = now.node.requestBody === undefined ? undefined : asNode(now.node.requestBody);
  const path = `${now.path}.requestBody`;
  if (!a && !b) return;
  if (!a || !b) {
    const required = b?.required === true;
    out.emit(
      !a
        ? required
          ? 'request-body-added-required'
          : 'request-body-added-optional'
        : 'request-body-removed',
      'description',
      place,
      {
        path,
        message: !a
          ? `${name} now ${required ? 'requires' : 'takes'} a request body${required ? ': clients that send none are refused' : ''}`
          : `${name} no longer takes a request body: clients that send one have it ignored`,
      },
    );
    return;
  }
  if ((a.required === true) !== (b.required === true))
    out.emit(
      b.required === true ? 'request-body-became-required' : 'request-body-became-optional',
      'description',
      place,
      {
        path,
        message:
          b.required === true
            ? `${name} now requires its request body: clients that send none are refused`
            : `${name} no longer requires its request body`,
      },
    );
  diffContent(asNode(a.content), asNode(b.content), `${path}.content`, place, out);
}

const RESPONSE_HEADERS = {
  requiredRemoved: 'response-required-header-removed',
  optionalRemoved: 'response-optional-header-removed',
  added: 'response-header-added',
} as const;

export function diffResponses(old: Operation, now: Operation, out: Emitter): void {
  const name = operationName(now.ref);
  const a = asNode(old.node.responses);
  const b = asNode(now.node.responses);
  for (const [status, raw] of Object.entries(a)) {
    const response = asNode(raw);
    const path = `${now.path}.responses${key(status)}`;
    const place: Place = {
      side: 'response',
      operation: now.ref,
      status,
      subject: `the ${status} response of ${name}`,
      who: 'clients',
      base: isDecision(response) ? 'decision' : 'description',
      ...(status === '200' ? { echo: { before: echoRequirement(old), after: echoRequirement(now) } } : {}),
    };
    const next = b[status];
    if (next === undefined) {
      const success = /^2/.test(status);
      out.emit(
        success ? 'response-success-status-removed' : 'response-non-success-status-removed',
        place.base ?? 'description',
        place,
        {
          path,
          before: status,
          message: success
            ? `${name} no longer answers ${status}: clients that expect it break`
            : `${name} no longer answers ${status}`,
        },
      );
      continue;
    }
    const nextNode = asNode(next);
    const kept = { ...place, base: isDecision(nextNode) ? 'decision' : 'description' } as const;
    diffContent(asNode(response.content), asNode(nextNode.content), `${path}.content`, kept, out);
    diffHeaders(
      asNode(response.headers),
      asNode(nextNode.headers),
      `${path}.headers`,
      kept,
      RESPONSE_HEADERS,
      out,
    );
  }
  for (const [status, raw] of Object.entries(b))
    if (!(status in a))
      out.emit(
        'response-status-added',
        isDecision(asNode(raw)) ? 'decision' : 'description',
        { side: 'response', operation: now.ref, status, subject: name, who: 'clients' },
        {
          path: `${now.path}.responses${key(status)}`,
          after: status,
          message: `${name} may now answer ${status}: clients that do not handle it break on it`,
        },
      );
}
