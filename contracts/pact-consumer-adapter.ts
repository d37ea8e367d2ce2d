// The one file of the consumer-test kit that touches @pact-foundation/pact (its V4 consumer DSL).
import { MatchersV3, PactV4 } from '@pact-foundation/pact';

/** ISO 8601 in UTC, as a Pact regex: `Z` or a zero offset, with or without seconds and their fraction. */
export const TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]00(:?00)?)$';

/**
 * Pact's V3 matchers, for the bodies, headers and paths of consumer interactions. Their results are
 * opaque values the adapter hands back to Pact.
 */
export const match = {
  like: MatchersV3.like,
  eachLike: MatchersV3.eachLike,
  regex: (pattern: string, example: string): unknown => MatchersV3.regex(pattern, example),
  integer: MatchersV3.integer,
  number: MatchersV3.number,
  string: MatchersV3.string,
  boolean: MatchersV3.boolean,
  /** A value the verifier fills in from what the provider-state handler returned. */
  fromProviderState: <T>(expression: string, example: T): unknown =>
    MatchersV3.fromProviderState(expression, example),
} as const;

export interface ProviderStateRef {
  readonly name: string;
  readonly params?: Readonly<Record<string, string | number | boolean>>;
}

/** One consumer interaction, in plain data; values may be {@link match} results. */
export interface InteractionDefinition {
  readonly states: readonly ProviderStateRef[];
  readonly description: string;
  readonly request: {
    readonly method: 'GET' | 'POST';
    readonly path: unknown;
    readonly query?: Readonly<Record<string, unknown>>;
    readonly headers?: Readonly<Record<string, unknown>>;
    readonly jsonBody?: unknown;
    /** A form-encoded body, exactly as the client sends it. */
    readonly formBody?: string;
  };
  readonly response: {
    readonly status: number;
    readonly headers?: Readonly<Record<string, unknown>>;
    readonly jsonBody?: unknown;
  };
}

export interface ConsumerPactOptions {
  readonly consumer: string;
  readonly provider: string;
  /** Folder the pact file is written to. */
  readonly dir: string;
}

export interface ConsumerPact {
  /**
   * Run `test` against Pact's mock server primed with `definition`; the pact file is written when
   * the mock server saw exactly the expected requests.
   */
  interaction(definition: InteractionDefinition, test: (baseUrl: string) => Promise<void>): Promise<void>;
}

/**
 * pact-js V4 offers only JSON, XML and binary bodies; a binary form body gets a content-type
 * matcher that sniffs it as text/plain. The FFI handle underneath takes text bodies, so use it.
 */
function textBody(builder: object, body: string, contentType: string): void {
  const interaction = (
    builder as { interaction?: { withRequestBody?: (body: string, type: string) => void } }
  ).interaction;
  if (typeof interaction?.withRequestBody !== 'function')
    throw new Error('pact-js changed: the V4 request builder no longer exposes its FFI interaction');
  interaction.withRequestBody(body, contentType);
}

type AnyTemplate = Parameters<typeof MatchersV3.like>[0];

/** A Pact V4 consumer pact over the FFI mock server (one mock server per interaction). */
export function createConsumerPact(options: ConsumerPactOptions): ConsumerPact {
  const pact = new PactV4({ ...options, logLevel: 'warn' });
  return {
    async interaction(definition, test) {
      let testError: unknown;
      let builder = pact.addInteraction();
      for (const state of definition.states) builder = builder.given(state.name, state.params);
      const { request, response } = definition;
      await builder
        .uponReceiving(definition.description)
        .withRequest(request.method, request.path as string, (req) => {
          if (request.query) req.query(request.query as Record<string, string>);
          if (request.headers) req.headers(request.headers as Record<string, string>);
          if (request.jsonBody !== undefined) req.jsonBody(request.jsonBody);
          if (request.formBody !== undefined)
            textBody(req, request.formBody, 'application/x-www-form-urlencoded');
        })
        .willRespondWith(response.status, (res) => {
          if (response.headers) res.headers(response.headers as Record<string, string>);
          if (response.jsonBody !== undefined) res.jsonBody(response.jsonBody as AnyTemplate);
        })
        .executeTest(async (server) => {
          try {
            await test(server.url);
          } catch (error) {
            testError = error;
            throw error;
          }
        })
        .catch((error: unknown) => {
          // pact-js reports the mock server's mismatches and drops the test's own error (a refused
          // connection, a client exception), which is the one that says why the request never came.
          if (testError === undefined || testError === error) throw error;
          throw new Error(`${String(error)}\nThe test itself failed first: ${String(testError)}`, {
            cause: testError,
          });
        });
    },
  };
}
