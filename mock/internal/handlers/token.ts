import { SCOPES, type Scope } from '../../../spec/index.ts';
import { okReply as ok } from '../envelope.ts';
import { MockHttpError } from '../http-types.ts';
import { newToken } from '../random.ts';
import { after, type Maybe } from '../store/maybe.ts';
import type { OperationHandler } from './handler.ts';
import { said, shaped } from './learned-shape.ts';

const KNOWN_SCOPES: readonly string[] = SCOPES;
/** Expired tokens are swept now and then, so a long run does not keep them all. */
const SWEEP_EVERY = 1000;
let issuedSinceSweep = 0;

/** POST /auth/token: the client-credentials grant. Body already validated by Prism. */
export const getAccessToken: OperationHandler = (context, { body, client }) => {
  if (!client) throw new Error('the token endpoint runs only after client authentication');
  const form = new URLSearchParams(String(body));
  const requested = form.get('scope');
  let scopes: Scope[];
  if (requested === null || requested === '') scopes = [...client.scopes];
  else {
    scopes = [];
    for (const name of requested.split(',')) {
      if (!KNOWN_SCOPES.includes(name))
        throw new MockHttpError(400, `Invalid request: unknown scope ${name}`);
      if (!client.scopes.includes(name as Scope)) {
        throw new MockHttpError(
          400,
          `Invalid request: scope ${name} is not allowed for client ${client.clientId}`,
        );
      }
      if (!scopes.includes(name as Scope)) scopes.push(name as Scope);
    }
  }
  // A recorded sandbox may grant every scope of the client whatever was asked.
  if (context.behaviour.grantsClientScopes) scopes = [...client.scopes];
  const now = context.clock.now();
  const { records } = context.store;
  let swept: Maybe<void> | undefined;
  if (++issuedSinceSweep >= SWEEP_EVERY) {
    issuedSinceSweep = 0;
    swept = records.sweepTokens(now);
  }
  const token = newToken();
  const added = records.addToken({
    token,
    clientId: client.clientId,
    scopes,
    expiresAt: now + context.tokenLifetimeSeconds * 1000,
  });
  const data = {
    access_token: token,
    expires_in_seconds: context.tokenLifetimeSeconds,
    scope: scopes.join(','),
    token_type: context.behaviour.tokenType,
  };
  const reply = ok(
    said(context, 'getAccessToken', 'Access token issued'),
    shaped(context, 'getAccessToken', data, Object.fromEntries(form)),
  );
  return swept instanceof Promise ? Promise.all([swept, added]).then(() => reply) : after(added, reply);
};
