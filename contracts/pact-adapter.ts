// The one file that touches @pact-foundation/pact: the rest of contracts/ sees plain TypeScript.
import { MatchersV3, PactV4, Verifier } from '@pact-foundation/pact';

/**
 * Pact's V3 matchers, for the bodies, headers and paths of consumer interactions. Their results are
 * opaque values the adapter hands back to Pact, typed `unknown` so no Pact type leaves this file
 * (pacu's published declarations would otherwise need Pact's, and Express's, types).
 */
export interface Matchers {
  like(template: unknown): unknown;
  eachLike(template: unknown, min?: number): unknown;
  regex(pattern: string, example: string): unknown;
  integer(example?: number): unknown;
  number(example?: number): unknown;
  string(example?: string): unknown;
  boolean(example?: boolean): unknown;
  /** A value the verifier fills in from what the provider-state handler returned. */
  fromProviderState<T>(expression: string, example: T): unknown;
}

export const match: Matchers = {
  like: (template) => MatchersV3.like(template),
  eachLike: (template, min) => MatchersV3.eachLike(template, min),
  regex: (pattern, example) => MatchersV3.regex(pattern, example),
  integer: (example) => MatchersV3.integer(example),
  number: (example) => MatchersV3.number(example),
  string: (example) => MatchersV3.string(example),
  boolean: (example) => MatchersV3.boolean(example),
  fromProviderState: (expression, example) => MatchersV3.fromProviderState(expression, example),
};

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
        .executeTest(async (server) => test(server.url));
    },
  };
}

/** Where the verifier takes pacts from: files, or a Pact Broker. */
export type PactSource =
  | { readonly kind: 'files'; readonly files: readonly string[] }
  | {
      readonly kind: 'broker';
      readonly url: string;
      readonly provider: string;
      readonly token?: string;
      readonly username?: string;
      readonly password?: string;
      readonly providerVersion: string;
      readonly providerBranch?: string;
      readonly publish: boolean;
    };

export interface VerifierRunOptions {
  /** Where the provider is, including its base path (`http://127.0.0.1:4010/v3`). */
  readonly providerBaseUrl: string;
  readonly source: PactSource;
  /** Set a provider state up; the values it returns fill the pact's `${name}` expressions. */
  readonly setupState: (name: string, params: Record<string, unknown>) => Promise<Record<string, string>>;
  readonly timeoutMs: number;
}

/** One mismatch or error the verifier reported for an interaction. */
export interface VerifierError {
  /** The verifier's name for the interaction: `Verifying a pact between C and P Given S - description`. */
  readonly interaction: string;
  readonly problems: readonly string[];
}

export interface VerifierOutcome {
  readonly passed: boolean;
  readonly interactions: ReadonlyArray<{
    readonly description: string;
    readonly passed: boolean;
    readonly durationMs: number;
  }>;
  readonly errors: readonly VerifierError[];
}

interface FfiMismatch {
  readonly type?: string;
  readonly path?: string;
  readonly key?: string;
  readonly mismatch?: string;
  readonly message?: string;
}

interface FfiResult {
  readonly result?: boolean;
  readonly interactionResults?: ReadonlyArray<{ description?: string; result?: string; duration?: string }>;
  readonly errors?: ReadonlyArray<{
    interaction?: string;
    mismatch?: { type?: string; message?: string; mismatches?: readonly FfiMismatch[] };
  }>;
}

function problemLine(mismatch: FfiMismatch): string {
  const where = mismatch.path ?? (mismatch.key ? `header ${mismatch.key}` : (mismatch.type ?? ''));
  return `${where}: ${mismatch.mismatch ?? mismatch.message ?? 'mismatch'}`.replace(/^: /, '');
}

function parseDuration(text: string | undefined): number {
  const found = /^([\d.]+)(ms|s)$/.exec(text ?? '');
  return found ? Number(found[1]) * (found[2] === 's' ? 1000 : 1) : 0;
}

/** The FFI's JSON result (`pactffi_verifier_json`) as plain data. */
export function parseVerifierResult(json: string): VerifierOutcome {
  const result = JSON.parse(json) as FfiResult;
  return {
    passed: result.result === true,
    interactions: (result.interactionResults ?? []).map((item) => ({
      description: item.description ?? '',
      passed: item.result === 'OK',
      durationMs: parseDuration(item.duration),
    })),
    errors: (result.errors ?? []).map((error) => ({
      interaction: error.interaction ?? '',
      problems: error.mismatch?.mismatches?.map(problemLine) ?? [
        error.mismatch?.message ?? 'the verifier reported an error',
      ],
    })),
  };
}

/** The pact-js Verifier options that name where the pacts come from (and where results go). */
export function verifierSourceOptions(source: PactSource): Record<string, unknown> {
  if (source.kind === 'files') return { pactUrls: [...source.files] };
  return {
    provider: source.provider,
    pactBrokerUrl: source.url,
    ...(source.token ? { pactBrokerToken: source.token } : {}),
    ...(source.username
      ? { pactBrokerUsername: source.username, pactBrokerPassword: source.password ?? '' }
      : {}),
    providerVersion: source.providerVersion,
    ...(source.providerBranch ? { providerVersionBranch: source.providerBranch } : {}),
    publishVerificationResult: source.publish,
    consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }],
    enablePending: true,
  };
}

/**
 * pact-js's proxy parses form bodies into objects and forwards them as JSON text under the form
 * content type, which breaks the token request; turn them back into form text first.
 */
function reencodeFormBody(
  req: { headers: Record<string, unknown>; body?: unknown },
  _res: unknown,
  next: () => void,
): void {
  const type = String(req.headers['content-type'] ?? '');
  if (
    type.startsWith('application/x-www-form-urlencoded') &&
    req.body &&
    typeof req.body === 'object' &&
    !Buffer.isBuffer(req.body)
  ) {
    const form = new URLSearchParams(req.body as Record<string, string>).toString();
    req.body = Buffer.from(form, 'utf8');
  }
  next();
}

/**
 * Run Pact's provider verifier (the FFI) against `providerBaseUrl`. It prints its own report on
 * stdout, so callers run it in a process whose stdout they own. Resolves with the outcome whether
 * the interactions passed or not; rejects only when the verifier could not run.
 */
export async function runVerifier(options: VerifierRunOptions): Promise<VerifierOutcome> {
  const verifier = new Verifier({
    providerBaseUrl: options.providerBaseUrl,
    logLevel: 'error',
    timeout: options.timeoutMs,
    failIfNoPactsFound: true,
    ...verifierSourceOptions(options.source),
    requestFilter: reencodeFormBody,
    stateHandlers: new Proxy(
      {},
      {
        // Every state goes to pacu's handler, known or not, so an unknown state is reported, not ignored.
        get: (_target, name) => (params?: Record<string, unknown>) =>
          options.setupState(String(name), params ?? {}),
      },
    ),
  });
  try {
    return parseVerifierResult(await verifier.verifyProvider());
  } catch (error) {
    const text = (error as Error).message;
    if (text.trimStart().startsWith('{')) return parseVerifierResult(text);
    throw error;
  }
}
