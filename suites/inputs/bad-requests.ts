import fc from 'fast-check';
import { pathFor } from '../../spec/index.ts';
import { isTokenEndpoint } from '../rules/read-operation.ts';
import type { RuleKit } from '../rules/rule.ts';
import { tokenRequest } from '../target/api-client.ts';
import type { ApiRequest } from '../target/api-request.ts';

/** Ids no target has: a fixed prefix no real id starts with, so shrinking cannot make one known. */
export function unknownIdArbitrary(): fc.Arbitrary<string> {
  return fc.stringMatching(/^[a-z0-9]{4,16}$/).map((suffix) => `pacu-unknown-${suffix}`);
}

/**
 * The valid request with the ids of its path replaced by one no target has: each alone (the others
 * kept known), and all together when there are several.
 */
export function unknownPathIds(
  kit: Pick<RuleKit<never>, 'operationSpec'>,
  request: ApiRequest,
  unknown: string,
): ApiRequest[] {
  const names = kit.operationSpec.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const template = kit.operationSpec.path.split('/');
  const query = request.path.includes('?') ? request.path.slice(request.path.indexOf('?')) : '';
  const segments = (request.path.split('?')[0] ?? '').split('/');
  const replaced = (which: readonly string[]): ApiRequest => {
    const path = template
      .map((part, index) =>
        which.includes(part.slice(1, -1)) ? encodeURIComponent(unknown) : segments[index],
      )
      .join('/');
    return { ...request, path: `${path}${query}` };
  };
  const alone = names.map((name) => replaced([name]));
  return names.length > 1 ? [...alone, replaced(names)] : alone;
}

/** The valid request with every id in its path replaced by one no target has. */
export function withUnknownPathId(
  kit: Pick<RuleKit<never>, 'operationSpec'>,
  request: ApiRequest,
  unknown: string,
): ApiRequest {
  const params = Object.fromEntries(
    kit.operationSpec.parameters.filter((p) => p.in === 'path').map((p) => [p.name, unknown]),
  );
  const query = request.path.includes('?') ? request.path.slice(request.path.indexOf('?')) : '';
  return { ...request, path: `${pathFor(kit.operationSpec, params)}${query}` };
}

/**
 * Requests every provider must refuse, whatever its choices: wrong client secret on the token
 * endpoint, unparsable JSON on JSON operations, an unknown id in a read's path. undefined for an
 * operation that takes no input the description documents (no body, no id in its path).
 */
export function badRequests(
  kit: RuleKit<'client' | 'ids'>,
): fc.Arbitrary<{ request: ApiRequest; what: string }> | undefined {
  if (isTokenEndpoint(kit.operationSpec)) {
    const { clientId, clientSecret } = kit.client;
    return fc.stringMatching(/^[A-Za-z0-9]{1,12}$/).map((suffix) => ({
      request: tokenRequest({ clientId, clientSecret: `${clientSecret}-${suffix}` }),
      what: 'a wrong client secret',
    }));
  }
  const valid = kit.valid();
  if (kit.operationSpec.requestBody) {
    return valid.map((request) => ({
      request: { ...request, body: (request.body ?? '').slice(0, -1) },
      what: 'JSON cut short',
    }));
  }
  if (!kit.operationSpec.parameters.some((parameter) => parameter.in === 'path')) return undefined;
  return fc.tuple(valid, unknownIdArbitrary()).map(([request, id]) => ({
    request: withUnknownPathId(kit, request, id),
    what: `an unknown id ${id}`,
  }));
}
