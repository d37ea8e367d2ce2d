import type { RoutedExchange } from '../http/index.ts';
import {
  echoOf,
  type JSONSchema7,
  type Profile,
  routeRequest,
  type Spec,
  schemaForProfile,
} from '../spec/index.ts';
import {
  type ApiRequest,
  type ApiResponse,
  errorShapeProblem,
  isSuccess,
  successShapeProblem,
} from '../suites/index.ts';
import type { ReplayState } from './replay-request.ts';
import { type PathStep, schemaAt } from './schema-at-path.ts';

type Json = Record<string, unknown>;

const objectOf = (value: unknown): Json | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;

const kindOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;

/** The recorded answer as the suites' judges read an answer. */
export function recordedResponse(exchange: RoutedExchange): ApiResponse {
  const { response } = exchange.entry;
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers.map(({ name, value }) => [name.toLowerCase(), value])),
    text: response.content.text ?? '',
    json: exchange.responseJson,
    durationMs: 0,
  };
}

/**
 * Fields of the documented view the recording answered that the replay lacks or answers with another
 * JSON type (a renamed field, a number become a string). Fields the description does not name are
 * the provider's own business.
 */
function missingOrRetyped(
  recorded: unknown,
  replayed: unknown,
  schema: JSONSchema7,
  steps: PathStep[] = [],
): string[] {
  if (Array.isArray(recorded) && Array.isArray(replayed))
    return recorded.length > 0 && replayed.length > 0
      ? missingOrRetyped(recorded[0], replayed[0], schema, [...steps, { kind: 'element' }])
      : [];
  const before = objectOf(recorded);
  const after = objectOf(replayed);
  if (!before || !after) return [];
  return Object.entries(before).flatMap(([key, value]) => {
    const at: PathStep[] = [...steps, { kind: 'property', name: key }];
    if (!schemaAt(schema, at)) return [];
    const where = at
      .map((step) => (step.kind === 'property' ? `.${step.name}` : '[0]'))
      .join('')
      .slice(1);
    if (!(key in after)) return [`${where} was answered in the recording and is missing now`];
    const now = after[key];
    if (value !== null && now !== null && kindOf(value) !== kindOf(now))
      return [`${where} was ${kindOf(value)} in the recording and is ${kindOf(now)} now`];
    return missingOrRetyped(value, now, schema, at);
  });
}

/** The fields of a request body, JSON or form. */
function bodyFields(body: string | undefined): Json {
  if (body === undefined) return {};
  try {
    return objectOf(JSON.parse(body)) ?? {};
  } catch {
    return Object.fromEntries(new URLSearchParams(body));
  }
}

/** What a request carried, by field: its path parameters and its body's fields. */
function requestFields(spec: Spec, method: string, path: string, body: string | undefined): Json {
  const route = routeRequest(spec, method, path);
  return { ...(route.kind === 'operation' ? route.params : {}), ...bodyFields(body) };
}

/**
 * The echo the spec knows of (`echoOf`: stated ones under documented, pacu's expectations too under
 * strict), judged only where the recording echoed: the replay must repeat what it sent there too.
 */
function echoDrift(judgement: ReplayJudgement, data: Json, recordedData: Json): string[] {
  const { spec, exchange, sent, profile } = judgement;
  const echo = exchange.operation ? echoOf(exchange.operation) : undefined;
  if (!echo || (!echo.stated && profile === 'documented')) return [];
  const { request } = exchange.entry;
  const recordedRequest = requestFields(spec, request.method, exchange.path, request.postData?.text);
  const sentFields = requestFields(spec, sent.method, sent.path, sent.body);
  return echo.fields.flatMap((name) => {
    if (!(name in sentFields)) return [];
    const wasEchoed = name in recordedData && recordedData[name] === recordedRequest[name];
    if (!wasEchoed || data[name] === sentFields[name]) return [];
    return [
      `data.${name} is ${JSON.stringify(data[name])} but the request sent ${JSON.stringify(sentFields[name])}: the answer echoes the request (the recording did)`,
    ];
  });
}

/**
 * Ids: they may differ from the recording's, but consistently. The first time a recorded id meets
 * the replay's, they pair up; later answers must keep the pair, and two recorded ids may not share
 * one replayed id (a replayed reference answered with its earlier transaction id, and only then).
 */
function idDrift(recordedData: Json, data: Json, state: ReplayState, expectSame: boolean): string[] {
  return Object.entries(recordedData).flatMap(([key, recorded]) => {
    const now = data[key];
    if (!key.endsWith('_id') || typeof recorded !== 'string' || typeof now !== 'string') return [];
    const paired = state.ids.get(recorded) ?? (expectSame ? recorded : undefined);
    if (paired !== undefined && paired !== now)
      return [`data.${key} is ${now}; the recording's ${recorded} was answered as ${paired} before`];
    const taken = state.recordedIds.get(now);
    if (taken !== undefined && taken !== recorded)
      return [`data.${key} ${now} was answered for the recording's ${taken} as well as ${recorded}`];
    state.ids.set(recorded, now);
    state.recordedIds.set(now, recorded);
    return [];
  });
}

export interface ReplayJudgement {
  readonly spec: Spec;
  readonly profile: Profile;
  readonly exchange: RoutedExchange;
  readonly sent: ApiRequest;
  readonly response: ApiResponse;
  readonly state: ReplayState;
  /** `--same-references`: a transfer's transaction id must be the recorded one. */
  readonly sameReferences: boolean;
}

/**
 * How the replayed answer drifted from the recorded one, one reason a line (none: no drift): the
 * status, the shape under the documented view (a problem the recorded answer did not have), fields
 * the recording had, echoed request fields, and ids that stopped pairing up. Ids and timestamps
 * may differ; message texts are free.
 */
export function replayDrift(judgement: ReplayJudgement): string[] {
  const { spec, profile, exchange, response, state } = judgement;
  const recorded = recordedResponse(exchange);
  if (recorded.status !== response.status)
    return [`status ${response.status}, the recording answered ${recorded.status}`];
  const operation = exchange.operation?.id;
  if (!operation) return [];
  const shape = (answer: ApiResponse): string | undefined =>
    isSuccess(answer) ? successShapeProblem(spec, operation, profile, answer) : errorShapeProblem(answer);
  const problem = shape(response);
  const reasons = problem && problem !== shape(recorded) ? [problem] : [];
  if (!isSuccess(response)) return reasons;
  const documented = schemaForProfile(
    spec.operation(operation).responses.get(recorded.status)?.schema as JSONSchema7,
    'documented',
  );
  reasons.push(...missingOrRetyped(recorded.json, response.json, documented));
  const recordedData = objectOf(objectOf(recorded.json)?.data);
  const data = objectOf(objectOf(response.json)?.data);
  if (!recordedData || !data) return reasons;
  reasons.push(...echoDrift(judgement, data, recordedData));
  const expectSame = judgement.sameReferences && operation === 'usdTransfer';
  const echoed = new Set(Object.keys(bodyFields(judgement.sent.body)));
  const ids = Object.fromEntries(Object.entries(recordedData).filter(([key]) => !echoed.has(key)));
  reasons.push(...idDrift(ids, data, state, expectSame));
  return reasons;
}
