import type { MockClient } from '../../types.ts';
import type { MockContext } from '../context.ts';
import type { MockReply, MockRequest } from '../http-types.ts';
import type { StoredToken } from '../state.ts';

/** What the app hands an operation handler once routing, auth and validation passed. */
export interface OperationInput {
  request: MockRequest;
  params: Record<string, string>;
  /** Parsed JSON, or the form text of the token request; undefined for GET. */
  body: unknown;
  /** Set on the token endpoint (Basic). */
  client?: MockClient;
  /** Set on bearer operations. */
  token?: StoredToken;
}

export type OperationHandler = (context: MockContext, input: OperationInput) => MockReply;
