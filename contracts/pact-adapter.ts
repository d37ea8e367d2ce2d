import type { ServerResponse } from 'node:http';
// The one file that touches Pact's verifier (@pact-foundation/pact): the rest of contracts/ sees plain
// TypeScript. The consumer side (pacu's consumer tests, pacts from recordings) has its own, pact-consumer-adapter.ts.
// The verifier's own module, not the package's index: that one also loads the consumer DSL, GraphQL
// and the message pacts, which doubled the verifier process's start.
import { Verifier } from '@pact-foundation/pact/src/dsl/verifier/verifier.js';
import { decodedText } from '../http/index.ts';

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
      /** Pact Broker consumer version selectors, as the broker documents them. */
      readonly consumerVersionSelectors: readonly Readonly<Record<string, unknown>>[];
      readonly enablePending: boolean;
      /** ISO date: include work-in-progress pacts published since then. */
      readonly includeWipPactsSince?: string;
    };

/** A request the verifier sent to the provider, as it went out (provider-state values filled in). */
export interface SentRequest {
  readonly method: string;
  /** Path and query as the pact gave them (states filled in), relative to the provider's base URL. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** What the provider answered, as the verifier received it; absent when no answer came. */
  response?: ReceivedResponse;
}

/** A provider's answer to one verifier request. */
export interface ReceivedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface VerifierRunOptions {
  /** Where the provider is, including its base path (`http://127.0.0.1:4010/v3`). */
  readonly providerBaseUrl: string;
  readonly source: PactSource;
  /** Sent with every request to the provider (`--header`, e.g. a sandbox's API key). */
  readonly headers: Readonly<Record<string, string>>;
  /** Set a provider state up; the values it returns fill the pact's `${name}` expressions. */
  readonly setupState: (name: string, params: Record<string, unknown>) => Promise<Record<string, string>>;
  /** Told of every request the verifier sends to the provider, in order. */
  readonly onRequest?: (request: SentRequest) => void;
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
  /** In the order the verifier ran them: the pacts in order, each pact's interactions in order. */
  readonly interactions: ReadonlyArray<{
    readonly description: string;
    readonly passed: boolean;
    readonly durationMs: number;
    /** A failure of a pending pact: reported, but it does not fail the build. */
    readonly pending: boolean;
    /** Who and what, as the verifier's report names them (empty when it did not say). */
    readonly consumer: string;
    readonly provider: string;
    readonly states: readonly string[];
  }>;
  /** The broker's notices (`before_verification` and the like), in order. */
  readonly notices: readonly string[];
  readonly errors: readonly VerifierError[];
  /** Failures of pending pacts. */
  readonly pendingErrors: readonly VerifierError[];
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
  readonly interactionResults?: ReadonlyArray<{
    description?: string;
    result?: string;
    duration?: string;
    pending?: boolean;
  }>;
  readonly errors?: readonly FfiError[];
  readonly pendingErrors?: readonly FfiError[];
  readonly notices?: ReadonlyArray<{ text?: string }>;
  readonly output?: readonly string[];
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the verifier's report carries ANSI colours.
const ANSI = /\u001b\[[0-9;]*m/g;

/** Consumer, provider and states of each interaction, in order, from the verifier's own report. */
function namesFromOutput(
  output: readonly string[],
): Array<{ consumer: string; provider: string; states: string[] }> {
  const names: Array<{ consumer: string; provider: string; states: string[] }> = [];
  let pact = { consumer: '', provider: '' };
  for (const raw of output.flatMap((line) => line.split('\n'))) {
    const line = raw.replace(ANSI, '');
    const between = /^Verifying a pact between (.+) and (.+)$/.exec(line);
    if (between) pact = { consumer: between[1] ?? '', provider: between[2] ?? '' };
    else if (/^ {2}\S.* \(.*verification\)$/.test(line)) names.push({ ...pact, states: [] });
    else {
      const state = /^ {5}(?:Given|And) (.+)$/.exec(line);
      if (state) names.at(-1)?.states.push(state[1] ?? '');
    }
  }
  return names;
}

interface FfiError {
  readonly interaction?: string;
  readonly mismatch?: { type?: string; message?: string; mismatches?: readonly FfiMismatch[] };
}

function problemLine(mismatch: FfiMismatch): string {
  const where = mismatch.path ?? (mismatch.key ? `header ${mismatch.key}` : (mismatch.type ?? ''));
  return `${where}: ${mismatch.mismatch ?? mismatch.message ?? 'mismatch'}`.replace(/^: /, '');
}

function parseDuration(text: string | undefined): number {
  const found = /^([\d.]+)(ms|s)$/.exec(text ?? '');
  return found ? Number(found[1]) * (found[2] === 's' ? 1000 : 1) : 0;
}

const toError = (error: FfiError): VerifierError => ({
  interaction: error.interaction ?? '',
  problems: error.mismatch?.mismatches?.map(problemLine) ?? [
    error.mismatch?.message ?? 'the verifier reported an error',
  ],
});

/** The FFI's JSON result (`pactffi_verifier_json`) as plain data. */
export function parseVerifierResult(json: string): VerifierOutcome {
  const result = JSON.parse(json) as FfiResult;
  const names = namesFromOutput(result.output ?? []);
  const runs = result.interactionResults ?? [];
  const named = names.length === runs.length;
  return {
    passed: result.result === true,
    interactions: runs.map((item, index) => ({
      description: item.description ?? '',
      passed: item.result === 'OK',
      durationMs: parseDuration(item.duration),
      pending: item.pending === true,
      consumer: named ? (names[index]?.consumer ?? '') : '',
      provider: named ? (names[index]?.provider ?? '') : '',
      states: named ? (names[index]?.states ?? []) : [],
    })),
    notices: (result.notices ?? []).flatMap((notice) => (notice.text ? [notice.text] : [])),
    errors: (result.errors ?? []).map(toError),
    pendingErrors: (result.pendingErrors ?? []).map(toError),
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
    consumerVersionSelectors: source.consumerVersionSelectors.map((selector) => ({ ...selector })),
    enablePending: source.enablePending,
    ...(source.includeWipPactsSince ? { includeWipPactsSince: source.includeWipPactsSince } : {}),
  };
}

interface ProxiedRequest {
  method: string;
  originalUrl: string;
  headers: Record<string, unknown>;
  body?: unknown;
}

/** pact-js's proxy also sees the state-change calls it answers itself; they are not provider requests. */
const STATE_SETUP_PATH = '/_pactSetup';

/** Characters a form value keeps as they are: RFC 3986's unreserved and sub-delims, less `&`, `=`, `+` and `?`. */
const FORM_LITERAL = /[A-Za-z0-9\-._~!$'()*,;:@/[\]]/;

function formEscape(text: string): string {
  let out = '';
  for (const character of text) {
    if (FORM_LITERAL.test(character)) out += character;
    else if (character === ' ') out += '+';
    else out += encodeURIComponent(character).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  }
  return out;
}

/**
 * Form fields as body-parser's `extended` parser left them, written back as form text the way a
 * client writes it: `scope=card,us_account` stays so (URLSearchParams would send `card%2Cus_account`,
 * bytes the pact never held). Repeated names come back repeated, nested ones as `a[b]`.
 */
export function formText(fields: Readonly<Record<string, unknown>>): string {
  const pairs: string[] = [];
  const add = (name: string, value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) add(name, item);
    else if (value && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) add(`${name}[${key}]`, item);
    else pairs.push(`${formEscape(name)}=${formEscape(String(value ?? ''))}`);
  };
  for (const [name, value] of Object.entries(fields)) add(name, value);
  return pairs.join('&');
}

/**
 * pact-js's proxy parses form bodies into objects and forwards them as JSON text under the form
 * content type, which breaks the token request; turn them back into form text first, with a
 * Content-Length of that text (the proxy keeps the one the verifier sent, and would cut a longer
 * body). Then tell `onRequest` what goes out.
 */
function requestFilter(onRequest: VerifierRunOptions['onRequest']) {
  return (req: ProxiedRequest, res: ServerResponse, next: () => void): void => {
    const type = String(req.headers['content-type'] ?? '');
    if (
      type.startsWith('application/x-www-form-urlencoded') &&
      req.body &&
      typeof req.body === 'object' &&
      !Buffer.isBuffer(req.body)
    ) {
      req.body = Buffer.from(formText(req.body as Record<string, unknown>), 'utf8');
      req.headers['content-length'] = String((req.body as Buffer).length);
    }
    if (onRequest && !req.originalUrl.startsWith(STATE_SETUP_PATH)) {
      const body = Buffer.isBuffer(req.body)
        ? req.body.toString('utf8')
        : req.body && typeof req.body === 'object' && Object.keys(req.body).length > 0
          ? JSON.stringify(req.body)
          : undefined;
      const sent: SentRequest = {
        method: req.method,
        url: req.originalUrl,
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
        ),
        ...(body ? { body } : {}),
      };
      onRequest(sent);
      recordResponse(res, sent);
    }
    next();
  };
}

/**
 * Keep what the proxy passes back to the verifier: the provider's answer, so a failure shows the
 * response as `pacu check`'s do. The answer is filled into `sent` once it is complete.
 */
function recordResponse(res: ServerResponse, sent: SentRequest): void {
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown, encoding?: unknown): void => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(
      Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
    );
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as ServerResponse['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return end(chunk, ...rest);
  }) as ServerResponse['end'];
  res.once('finish', () => {
    sent.response = {
      status: res.statusCode,
      headers: Object.fromEntries(
        Object.entries(res.getHeaders()).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(', ') : String(value),
        ]),
      ),
      body: decodedText(Buffer.concat(chunks), res.getHeader('content-encoding') as string | undefined),
    };
  });
}

/**
 * Run Pact's provider verifier (the FFI) against `providerBaseUrl`. It prints its own report on
 * stdout, so callers run it in a process whose stdout they own. Resolves with the outcome whether
 * the interactions passed or not; rejects only when the verifier could not run.
 */
export async function runVerifier(options: VerifierRunOptions): Promise<VerifierOutcome> {
  const verifier = new Verifier({
    providerBaseUrl: options.providerBaseUrl,
    customProviderHeaders: Object.entries(options.headers).map(([name, value]) => `${name}: ${value}`),
    logLevel: 'error',
    timeout: options.timeoutMs,
    failIfNoPactsFound: true,
    ...verifierSourceOptions(options.source),
    requestFilter: requestFilter(options.onRequest),
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
