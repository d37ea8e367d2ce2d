import type { Origin } from '../glossary.ts';
import { diffRequestBody, diffResponses } from './body-diff.ts';
import { asNode, isDecision, key, type Node } from './description.ts';
import { type Emitter, operationName, type Place, requestPlace } from './emitter.ts';
import type { Operation } from './operation.ts';
import { diffSchemas } from './schema-diff.ts';
import { diffSecurity } from './security-diff.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

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

function diffParameters(old: Operation, now: Operation, out: Emitter): void {
  const name = operationName(now.ref);
  const request = requestPlace(now.ref);
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
