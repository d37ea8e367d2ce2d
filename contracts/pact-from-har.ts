import { copyFile, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Har, type RoutedExchange, routeHar } from '../http/index.ts';
import { ConfigError, type JSONSchema7, loadSpec, type Spec, schemaForProfile } from '../spec/index.ts';
import { basic } from '../suites/index.ts';
import type { InteractionDefinition } from './pact-consumer-adapter.ts';
import { PROVIDER_STATES } from './provider-state-names.ts';
import { type PathStep, schemaAt } from './schema-at-path.ts';

export interface PactFromHarOptions {
  readonly consumer: string;
  readonly provider: string;
  /** Folder the pact file `<consumer>-<provider>.json` is written to (made when missing). */
  readonly dir: string;
  /** @default pacu's spec as it ships */
  readonly spec?: Spec;
}

/** The examples a pact carries where the recording had credentials; the verifier swaps in real ones (decision 030). */
const EXAMPLE_TOKEN = 'example-access-token';
const EXAMPLE_BASIC = basic('merchant-client-id', 'merchant-client-secret').authorization as string;
/** See sendExample. */
const RECEIVED_GRACE_MS = 20;
const stateRef = (name: string): string => ['${', name, '}'].join('');

/** Pact's consumer DSL, loaded by writePactFromHar only: importing contracts/ loads no pact-js. */
type ConsumerDsl = typeof import('./pact-consumer-adapter.ts');

/**
 * The recorded value as a Pact template under the documented view: a regex for timestamps and for
 * the values the description enumerates, types for everything else (ids, amounts, names); fields
 * the description does not say are there are left out, as they are the provider's own business.
 */
function template(
  dsl: ConsumerDsl,
  value: unknown,
  schema: JSONSchema7,
  steps: readonly PathStep[],
  key?: string,
): unknown {
  if (Array.isArray(value)) {
    return value.length === 0
      ? dsl.match.like([])
      : dsl.match.eachLike(template(dsl, value[0], schema, [...steps, { kind: 'element' }]));
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).flatMap(([name, item]) => {
        const at: PathStep[] = [...steps, { kind: 'property', name }];
        // Only what the description says is there: a pact expecting an optional field would fail
        // a provider that leaves it out, and --against-spec says so.
        return schemaAt(schema, at)?.required ? [[name, template(dsl, item, schema, at, name)]] : [];
      }),
    );
  }
  const facts = schemaAt(schema, steps);
  if (typeof value === 'string') {
    if (key === 'access_token') return dsl.match.string(EXAMPLE_TOKEN);
    if (facts?.nodes.some((node) => node.format === 'date-time'))
      return dsl.match.regex(dsl.TIMESTAMP_PATTERN, value);
    if (facts?.enum?.includes(value) && facts.enum.length > 1) {
      const escaped = facts.enum.map((choice) => String(choice).replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
      return dsl.match.regex(`^(${escaped.join('|')})$`, value);
    }
    return dsl.match.string(value);
  }
  if (typeof value === 'number')
    return facts?.types.includes('integer') ? dsl.match.integer(value) : dsl.match.number(value);
  if (typeof value === 'boolean') return dsl.match.boolean(value);
  return value;
}

function describe(exchange: RoutedExchange): string {
  const number = String(exchange.index + 1).padStart(3, '0');
  return `recorded exchange ${number}: ${exchange.entry.request.method} ${exchange.path} answered ${exchange.entry.response.status}`;
}

/** The recorded exchange as a consumer interaction; its credentials become provider-state expressions. */
function interactionOf(dsl: ConsumerDsl, exchange: RoutedExchange): InteractionDefinition {
  const { request: recorded, response } = exchange.entry;
  const authorization = recorded.headers.find(({ name }) => name.toLowerCase() === 'authorization');
  const isTokenRequest = exchange.operation?.id === 'getAccessToken';
  const [pathname = '', query] = exchange.path.split(/\?(.*)/s, 2);
  const schema = exchange.operation?.responses.get(response.status)?.schema as JSONSchema7 | undefined;
  const documented = schema ? schemaForProfile(schema, 'documented') : undefined;
  const type = recorded.headers.find(({ name }) => name.toLowerCase() === 'content-type')?.value ?? '';
  const text = recorded.postData?.text;
  return {
    states: authorization ? [{ name: PROVIDER_STATES.validClient }] : [],
    description: describe(exchange),
    request: {
      method: recorded.method.toUpperCase() as 'GET' | 'POST',
      path: pathname,
      ...(query ? { query: Object.fromEntries(new URLSearchParams(query)) } : {}),
      ...(authorization
        ? {
            headers: {
              authorization: isTokenRequest
                ? dsl.match.fromProviderState(`Basic ${stateRef('clientCredentials')}`, EXAMPLE_BASIC)
                : dsl.match.fromProviderState(`Bearer ${stateRef('accessToken')}`, `Bearer ${EXAMPLE_TOKEN}`),
            },
          }
        : {}),
      ...(text === undefined
        ? {}
        : exchange.requestJson !== undefined
          ? { jsonBody: exchange.requestJson }
          : type.startsWith('application/x-www-form-urlencoded')
            ? { formBody: text }
            : {}),
    },
    response: {
      status: response.status,
      ...(exchange.responseJson !== undefined
        ? {
            headers: { 'Content-Type': dsl.match.regex('^application/json(;.*)?$', 'application/json') },
            jsonBody: documented
              ? template(dsl, exchange.responseJson, documented, [])
              : exchange.responseJson,
          }
        : {}),
    },
  };
}

/** Send what the interaction expects to Pact's mock server, as the recorded client did. */
async function sendExample(baseUrl: string, definition: InteractionDefinition, exchange: RoutedExchange) {
  const recorded = exchange.entry.request;
  const headers: Record<string, string> = {};
  if (definition.request.headers)
    headers.authorization =
      exchange.operation?.id === 'getAccessToken' ? EXAMPLE_BASIC : `Bearer ${EXAMPLE_TOKEN}`;
  const body =
    definition.request.jsonBody !== undefined
      ? JSON.stringify(definition.request.jsonBody)
      : definition.request.formBody;
  if (definition.request.jsonBody !== undefined) headers['content-type'] = 'application/json';
  else if (definition.request.formBody !== undefined)
    headers['content-type'] = 'application/x-www-form-urlencoded';
  // One connection per interaction, closed before Pact looks at what its mock server received.
  const { Agent, request } = await import('undici');
  const dispatcher = new Agent({ connections: 1 });
  try {
    const answer = await request(`${baseUrl}${exchange.path}`, {
      dispatcher,
      method: recorded.method.toUpperCase() as 'GET' | 'POST',
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    await answer.body.text();
  } finally {
    await dispatcher.close();
  }
  // Pact's mock server counts a request as received a moment after it has answered it: checked at
  // once, a request just answered could read as "expected but not received" (2 writes in 25).
  await new Promise((resolve) => setTimeout(resolve, RECEIVED_GRACE_MS));
}

/**
 * Write a recording's exchanges as a Pact V4 file through Pact's own DSL and mock server: relative
 * paths, the requests as sent, matchers from the documented view, credentials as provider-state
 * expressions (decision 030). Paths the description lacks and 5xx answers are left out.
 *
 * @example
 * const file = await writePactFromHar(await readHar('sandbox.har'), { consumer: 'shop', provider: 'pacu-api', dir: 'pacts' });
 */
export async function writePactFromHar(har: Har, options: PactFromHarOptions): Promise<string> {
  const spec = options.spec ?? (await loadSpec());
  // A 5xx is no answer a consumer relies on, nor one that broke off or never came (`_error`).
  const exchanges = routeHar(spec, har).filter(
    (exchange) =>
      exchange.operation !== undefined &&
      exchange.entry.response.status < 500 &&
      exchange.error === undefined,
  );
  if (exchanges.length === 0)
    throw new ConfigError(
      'pacu: the recording has no exchange on an operation of the description: no pact to write',
    );
  // Pact writes into a private folder; one rename puts the whole file in place (and replaces an older one).
  const work = await mkdtemp(join(tmpdir(), 'pacu-pact-har-'));
  const name = `${options.consumer}-${options.provider}.json`;
  try {
    const dsl: ConsumerDsl = await import('./pact-consumer-adapter.ts');
    const pact = dsl.createConsumerPact({
      consumer: options.consumer,
      provider: options.provider,
      dir: work,
    });
    for (const exchange of exchanges) {
      const definition = interactionOf(dsl, exchange);
      await pact.interaction(definition, (baseUrl) => sendExample(baseUrl, definition, exchange));
    }
    await mkdir(options.dir, { recursive: true });
    const target = join(options.dir, name);
    await copyFile(join(work, name), join(options.dir, `.${name}.tmp`));
    await rename(join(options.dir, `.${name}.tmp`), target);
    return target;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
