import type { OperationRef, Origin } from '../glossary.ts';
import { asNode, type Node } from './description.ts';
import { type Emitter, list, operationName, type Place } from './emitter.ts';
import { diffSchemas } from './schema-diff.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const isDecision = (node: Node): boolean => typeof node['x-pacu-decision'] === 'string';
const key = (name: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;

interface Operation {
  readonly ref: Extract<OperationRef, { kind: 'operation' }>;
  readonly node: Node;
  readonly parameters: Node[];
  readonly path: string;
}

/** Operations by method and path, path parameters unnamed: `/cards/{id}` and `/cards/{card_id}` are one path. */
function operationsOf(document: Node): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [template, rawItem] of Object.entries(asNode(document.paths))) {
    const item = asNode(rawItem);
    const shared = Array.isArray(item.parameters) ? item.parameters.map(asNode) : [];
    for (const method of METHODS) {
      if (!(method in item)) continue;
      const node = asNode(item[method]);
      const own = Array.isArray(node.parameters) ? node.parameters.map(asNode) : [];
      // An operation's parameter replaces the path item's of the same name and location.
      const parameters = [
        ...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)),
        ...own,
      ];
      operations.set(`${method.toUpperCase()} ${template.replace(/\{[^}]+\}/g, '{}')}`, {
        ref: {
          kind: 'operation',
          method: method.toUpperCase(),
          path: template,
          ...(typeof node.operationId === 'string' ? { id: node.operationId } : {}),
        },
        node,
        parameters,
        path: `$.paths${key(template)}.${method}`,
      });
    }
  }
  return operations;
}

/** Scheme name → the scopes asked for, over every alternative requirement. */
function securityOf(operation: Node, document: Node): Map<string, Set<string>> {
  const requirements = (operation.security ?? document.security ?? []) as unknown[];
  const schemes = new Map<string, Set<string>>();
  for (const requirement of requirements)
    for (const [scheme, scopes] of Object.entries(asNode(requirement)))
      schemes.set(
        scheme,
        new Set([...(schemes.get(scheme) ?? []), ...(Array.isArray(scopes) ? scopes.map(String) : [])]),
      );
  return schemes;
}

function diffSecurity(
  old: Operation,
  now: Operation,
  before: Node,
  after: Node,
  place: Place,
  out: Emitter,
): void {
  const a = securityOf(old.node, before);
  const b = securityOf(now.node, after);
  const name = operationName(now.ref);
  // An operation's mark is about its token: whether it needs one, unless the description says so, and which scope.
  const scopeOrigin: Origin = isDecision(old.node) || isDecision(now.node) ? 'decision' : 'description';
  const needOrigin: Origin =
    scopeOrigin === 'decision' && now.node['x-pacu-bearer-documented'] !== true ? 'decision' : 'description';
  const path = `${now.path}.security`;
  for (const [scheme, scopes] of b) {
    const had = a.get(scheme);
    if (!had) {
      out.emit('operation-security-added', needOrigin, place, {
        path,
        after: scheme,
        message: `${name} now needs ${scheme}${scopes.size ? ` with ${list([...scopes])}` : ''}: clients that call it without are refused`,
      });
      continue;
    }
    const added = [...scopes].filter((scope) => !had.has(scope));
    const removed = [...had].filter((scope) => !scopes.has(scope));
    if (added.length > 0)
      out.emit('operation-security-scope-added', scopeOrigin, place, {
        path,
        before: [...had],
        after: [...scopes],
        message: `${name} now needs the scope ${list(added)}: clients whose tokens lack it get 403`,
      });
    if (removed.length > 0)
      out.emit('operation-security-scope-removed', scopeOrigin, place, {
        path,
        before: [...had],
        after: [...scopes],
        message: `${name} no longer needs the scope ${list(removed)}`,
      });
  }
  for (const scheme of a.keys())
    if (!b.has(scheme))
      out.emit('operation-security-removed', needOrigin, place, {
        path,
        before: scheme,
        message: `${name} no longer needs ${scheme}`,
      });
}

function diffParameters(old: Operation, now: Operation, out: Emitter): void {
  const name = operationName(now.ref);
  const request: Place = {
    side: 'request',
    operation: now.ref,
    subject: `the request of ${name}`,
    who: 'clients',
  };
  const byKey = (parameters: Node[]): Map<string, Node> =>
    new Map(parameters.map((p) => [`${p.in} ${p.name}`, p]));
  const a = byKey(old.parameters);
  const b = byKey(now.parameters);
  const where = (p: Node): string => `${now.path}.parameters[?(@.name==${JSON.stringify(p.name)})]`;
  const originOf = (p: Node): Origin => (isDecision(p) ? 'decision' : 'description');
  for (const [id, parameter] of a) {
    const next = b.get(id);
    const label = `the ${parameter.in} parameter \`${parameter.name}\``;
    if (!next) {
      const moved = [...b.values()].find((p) => p.name === parameter.name && !a.has(`${p.in} ${p.name}`));
      if (moved)
        out.emit('request-parameter-location-changed', originOf(moved), request, {
          path: where(moved),
          field: `${moved.in} ${moved.name}`,
          before: parameter.in,
          after: moved.in,
          message: `${name} now takes \`${parameter.name}\` in the ${moved.in}, not the ${parameter.in}: clients that send it where it was are not heard`,
        });
      else
        out.emit('request-parameter-removed', originOf(parameter), request, {
          path: where(parameter),
          field: id,
          message: `${name} no longer takes ${label}: clients that send it have it ignored`,
        });
      continue;
    }
    if ((parameter.required === true) !== (next.required === true))
      out.emit(
        next.required === true ? 'request-parameter-became-required' : 'request-parameter-became-optional',
        originOf(next),
        request,
        {
          path: where(next),
          field: id,
          before: parameter.required === true,
          after: next.required === true,
          message:
            next.required === true
              ? `${name} now requires ${label}: clients that leave it out are refused`
              : `${name} no longer requires ${label}`,
        },
      );
    diffSchemas(
      parameter.schema,
      next.schema,
      `${where(next)}.schema`,
      { ...request, root: `\`${String(next.name)}\``, base: originOf(next), subject: `${label} of ${name}` },
      out,
    );
  }
  for (const [id, parameter] of b) {
    if (a.has(id) || [...a.values()].some((p) => p.name === parameter.name && !b.has(`${p.in} ${p.name}`)))
      continue;
    const required = parameter.required === true;
    out.emit(
      required ? 'new-required-request-parameter' : 'new-optional-request-parameter',
      originOf(parameter),
      request,
      {
        path: where(parameter),
        field: id,
        message: required
          ? `${name} now requires the ${parameter.in} parameter \`${String(parameter.name)}\`: clients that do not send it are refused`
          : `${name} takes a new optional ${parameter.in} parameter \`${String(parameter.name)}\``,
      },
    );
  }
}

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

function diffRequestBody(old: Operation, now: Operation, out: Emitter): void {
  const name = operationName(now.ref);
  const place: Place = {
    side: 'request',
    operation: now.ref,
    subject: `the request of ${name}`,
    who: 'clients',
  };
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

function diffResponses(old: Operation, now: Operation, out: Emitter): void {
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
    diffContent(
      asNode(response.content),
      asNode(nextNode.content),
      `${path}.content`,
      { ...place, base: isDecision(nextNode) ? 'decision' : 'description' },
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

/** Compare every operation of `paths`: added, removed, and each one both versions have. */
export function diffOperations(before: Node, after: Node, out: Emitter): void {
  const a = operationsOf(before);
  const b = operationsOf(after);
  for (const [id, old] of a) {
    const now = b.get(id);
    const place: Place = {
      side: 'request',
      operation: (now ?? old).ref,
      subject: operationName(old.ref),
      who: 'clients',
    };
    if (!now) {
      const deprecated = old.node.deprecated === true;
      out.emit(deprecated ? 'deprecated-operation-removed' : 'operation-removed', 'description', place, {
        path: old.path,
        before: `${old.ref.method} ${old.ref.path}`,
        message: `${operationName(old.ref)} (${old.ref.method} ${old.ref.path}) is gone: clients that call it get 404`,
      });
      continue;
    }
    if (old.ref.id !== now.ref.id)
      out.emit('operation-id-changed', 'description', place, {
        path: `${now.path}.operationId`,
        before: old.ref.id,
        after: now.ref.id,
        message: `${now.ref.method} ${now.ref.path} is now called ${now.ref.id ?? 'nothing'} (was ${old.ref.id ?? 'nothing'}): generated clients rename the method`,
      });
    if (old.node.deprecated !== true && now.node.deprecated === true)
      out.emit('operation-deprecated', 'description', place, {
        path: `${now.path}.deprecated`,
        message: `${operationName(now.ref)} is deprecated`,
      });
    diffSecurity(old, now, before, after, place, out);
    diffParameters(old, now, out);
    diffRequestBody(old, now, out);
    diffResponses(old, now, out);
  }
  for (const [id, now] of b)
    if (!a.has(id))
      out.emit(
        'operation-added',
        'description',
        { side: 'request', operation: now.ref, subject: operationName(now.ref), who: 'clients' },
        {
          path: now.path,
          after: `${now.ref.method} ${now.ref.path}`,
          message: `${operationName(now.ref)} (${now.ref.method} ${now.ref.path}) is new`,
        },
      );
}
