import type { MockClient } from '../../types.ts';
import type { MockContext } from '../context.ts';
import type { MockReply, MockRequest } from '../http-types.ts';
import type { StoredToken } from '../state.ts';
import type { Maybe } from '../store/maybe.ts';
import type { Found } from '../store/state-store.ts';

/** What the app hands an operation handler once routing, auth and validation passed. */
export interface OperationInput {
  request: MockRequest;
  params: Record<string, string>;
  /** Parsed JSON, or the form text of the token request; undefined for GET. */
  body: unknown;
  /** What the store has under every key the request reads, asked together before auth. */
  found: Found;
  /** Set on the token endpoint (Basic). */
  client?: MockClient;
  /** Set on bearer operations. */
  token?: StoredToken;
}

/** An operation: its answer at once on the memory store, once its writes are done on a database. */
export type OperationHandler = (context: MockContext, input: OperationInput) => Maybe<MockReply>;
