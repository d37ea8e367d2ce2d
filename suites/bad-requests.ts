import fc from 'fast-check';
import type { OperationId } from '../spec/index.ts';
import { tokenRequest } from './api-client.ts';
import type { ApiRequest } from './api-request.ts';
import { type RuleContext, Skip } from './rule.ts';
import { validRequests } from './valid-requests.ts';

/** Ids no target has: a fixed prefix no real id starts with, so shrinking cannot make one known. */
export function unknownIdArbitrary(): fc.Arbitrary<string> {
  return fc.stringMatching(/^[a-z0-9]{4,16}$/).map((suffix) => `pacu-unknown-${suffix}`);
}

/** Path segments that hold ids, in the order the operation's path names them. */
const PATH_ID = /\/(cards\/virtual|cards|payments\/card|p2p\/status)\/([^/?]+)/;

/** The valid request with the id in its path replaced by one no target has. */
export function withUnknownPathId(request: ApiRequest, unknown: string): ApiRequest {
  return { ...request, path: request.path.replace(PATH_ID, (_all, prefix) => `/${prefix}/${unknown}`) };
}

/**
 * Requests every provider must refuse, whatever its choices: wrong client secret on the token
 * endpoint, unparsable JSON on JSON operations, an unknown id in a read's path. undefined for
 * `listUsers`, which takes no input the description documents.
 */
export async function badRequests(
  context: RuleContext,
  operation: OperationId,
): Promise<fc.Arbitrary<{ request: ApiRequest; what: string }> | Skip | undefined> {
  if (operation === 'listUsers') return undefined;
  if (operation === 'getAccessToken') {
    const { clientId, clientSecret } = context.config;
    if (!clientId || !clientSecret) return new Skip('needs --client-id and --client-secret');
    return fc.stringMatching(/^[A-Za-z0-9]{1,12}$/).map((suffix) => ({
      request: tokenRequest({ clientId, clientSecret: `${clientSecret}-${suffix}` }),
      what: 'a wrong client secret',
    }));
  }
  const valid = await validRequests(context, operation);
  if (valid instanceof Skip) return valid;
  if (context.spec.operation(operation).requestBody) {
    return valid.map((request) => ({
      request: { ...request, body: (request.body ?? '').slice(0, -1) },
      what: 'JSON cut short',
    }));
  }
  return fc.tuple(valid, unknownIdArbitrary()).map(([request, id]) => ({
    request: withUnknownPathId(request, id),
    what: `an unknown id ${id}`,
  }));
}
