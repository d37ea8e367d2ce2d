import type { Origin } from '../glossary.ts';
import { asNode, isDecision, key, type Node } from './description.ts';
import { type Emitter, list, operationName, type Place } from './emitter.ts';
import type { Operation } from './operation.ts';

const DOCUMENT: Place = { side: 'document', subject: 'the description', who: 'clients' };

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

export function diffSecurity(
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
