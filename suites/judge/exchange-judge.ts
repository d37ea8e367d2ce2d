import { hasScheme } from '../../http/index.ts';
import {
  compileSchema,
  type JSONSchema7,
  type OperationSpec,
  type Profile,
  type RouteResult,
  routeRequest,
  type SchemaCheck,
  type Spec,
  schemaForProfile,
} from '../../spec/index.ts';
import { type Fault, faultOf, judgedCheck } from '../rules/catalogue.ts';
import { type ApiRequest, type ApiResponse, requestJson } from '../target/api-request.ts';
import { isJsonMediaType } from '../target/media-type.ts';
import { boundedMemory } from './bounded-map.ts';
import { compileAnswerChecks, errorShapeProblem, isSuccess, successShapeProblem } from './envelope-checks.ts';

/** One request and the answer it got, as a proxy (or any observer of real traffic) saw them. */
export interface ObservedExchange {
  /** Order of arrival, from 1: the exchange a finding points at. */
  readonly seq: number;
  /** When the request arrived, ISO 8601. */
  readonly startedAt: string;
  /** Path relative to the base URL, with the query string, as pacu check's requests are. */
  readonly request: ApiRequest;
  readonly response: ApiResponse;
}

/**
 * Who broke the description: `client` (the request is not one the description allows) or
 * `provider` (the answer is not one the description allows): the registry's `fault` of the check.
 */
export type FindingSide = Fault;

/** One thing an exchange broke, as data. Rule ids are pacu check's where the meaning is the same. */
export interface ExchangeFinding {
  readonly side: FindingSide;
  readonly rule: string;
  readonly profile: Profile;
  readonly reason: string;
  /** The operation the request routes to, or undefined when it routes to none. */
  readonly operation: string | undefined;
  readonly exchange: ObservedExchange;
}

/** What the judge made of one exchange: the rules it applied, and what broke them. */
export interface ExchangeVerdict {
  readonly operation: OperationSpec | undefined;
  /** One of a few lists made once (the same list for every exchange judged by the same rules). */
  readonly checked: readonly string[];
  readonly findings: readonly ExchangeFinding[];
}

// The checks the judge applies, named in the one registry (suites/rules/catalogue.ts).
const ROUTE = judgedCheck('exchange', 'client.operation');
const REQUEST_TYPE = judgedCheck('exchange', 'client.content-type');
const REQUEST_BODY = judgedCheck('exchange', 'client.request-shape');
const AUTHORIZATION = judgedCheck('exchange', 'client.authorization');
const JSON_ANSWER = judgedCheck('exchange', 'envelope.content-type');
const STATUS = judgedCheck('exchange', 'envelope.status-code');
const SUCCESS = judgedCheck('exchange', 'envelope.success-shape');
const ERROR = judgedCheck('exchange', 'envelope.error-shape');

/** The rules a request no operation has is judged by. */
const ROUTE_ONLY: readonly string[] = [ROUTE];

/** Compiled request body schemas by profile and operation (an operation belongs to one spec); null: no body. */
const requestCheckers: Record<Profile, WeakMap<OperationSpec, SchemaCheck | null>> = {
  documented: new WeakMap(),
  strict: new WeakMap(),
};

/** The request body schema of an operation under a profile, compiled once. */
function requestChecker(operation: OperationSpec, profile: Profile): SchemaCheck | undefined {
  let check = requestCheckers[profile].get(operation);
  if (check === undefined) {
    const body = operation.requestBody;
    check = body ? compileSchema(schemaForProfile(body.schema as JSONSchema7, profile)) : null;
    requestCheckers[profile].set(operation, check);
  }
  return check ?? undefined;
}

function parsedRequestBody(request: ApiRequest, mediaType: string): unknown {
  return mediaType === 'application/x-www-form-urlencoded'
    ? Object.fromEntries(new URLSearchParams(request.body ?? ''))
    : requestJson(request);
}

type Draft = Omit<ExchangeFinding, 'exchange' | 'operation'>;

function judgeRequest(operation: OperationSpec, request: ApiRequest, profile: Profile): Draft[] {
  const out: Draft[] = [];
  const client = (rule: string, reason: string, at: Profile = 'documented'): void => {
    if (at === 'documented' || profile === 'strict')
      out.push({ side: faultOf(rule), rule, profile: at, reason });
  };
  // Basic on the token request and bearer on usdTransfer are stated; the other tokens are decisions.
  const security = operation.security;
  if (security.kind !== 'none') {
    const scheme = security.kind === 'basic' ? 'Basic' : 'Bearer';
    const header = request.headers.authorization;
    if (!hasScheme(header, security.kind))
      client(
        AUTHORIZATION,
        `${operation.id} takes ${scheme} authentication; the request has ${header ? 'another Authorization scheme' : 'no Authorization header'}`,
        security.kind === 'basic' || operation.bearerDocumented ? 'documented' : 'strict',
      );
  }
  const body = operation.requestBody;
  if (!body) return out;
  const type = request.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith(body.mediaType)) {
    client(
      REQUEST_TYPE,
      `${operation.id} takes ${body.mediaType}, the request sent ${type || 'no Content-Type'}`,
    );
    return out;
  }
  const value = parsedRequestBody(request, body.mediaType);
  if (value === undefined) {
    client(REQUEST_BODY, `the ${operation.id} request body is not JSON`);
    return out;
  }
  const issues = requestChecker(operation, profile)?.(value) ?? [];
  if (issues.length > 0)
    client(
      REQUEST_BODY,
      `the request body breaks the ${operation.id} request schema: ${issues
        .slice(0, 3)
        .map((issue) => `${issue.path || '/'} ${issue.message}`)
        .join('; ')}`,
    );
  return out;
}

/** Whether the operation may answer `status` under `profile`: 200 is the only success the description has. */
function statusProblem(operation: OperationSpec, status: number, profile: Profile): Draft | undefined {
  if (status >= 200 && status < 300 && status !== 200)
    return {
      side: faultOf(STATUS),
      rule: STATUS,
      profile: 'documented',
      reason: `HTTP ${status}: every success response of the description uses HTTP 200`,
    };
  const known = operation.responses.get(status);
  if (profile === 'strict' && !known)
    return {
      side: faultOf(STATUS),
      rule: STATUS,
      profile: 'strict',
      reason: `HTTP ${status} is no response of ${operation.id} (it has ${[...operation.responses.keys()].join(', ')})`,
    };
  return undefined;
}

function judgeResponse(
  spec: Spec,
  operation: OperationSpec,
  response: ApiResponse,
  profile: Profile,
): Draft[] {
  const provider = (rule: string, reason: string): Draft => ({
    side: faultOf(rule),
    rule,
    profile: 'documented',
    reason,
  });
  const out: Draft[] = [];
  const status = statusProblem(operation, response.status, profile);
  if (status) out.push(status);
  // "All request and response bodies are JSON": anything else is forwarded as it came, and named.
  if (!isJsonMediaType(response.headers['content-type']) || response.json === undefined) {
    out.push(
      provider(
        JSON_ANSWER,
        `HTTP ${response.status} came with Content-Type ${response.headers['content-type'] ?? '(none)'}${response.json === undefined ? ' and a body that is not JSON' : ''}: ${response.text.slice(0, 80) || '(empty)'}`,
      ),
    );
    return out;
  }
  const problem = isSuccess(response)
    ? successShapeProblem(spec, operation.id, profile, response)
    : response.status >= 400
      ? errorShapeProblem(response)
      : undefined;
  if (problem) out.push(provider(isSuccess(response) ? SUCCESS : ERROR, problem));
  return out;
}

/**
 * Judge one exchange against the documented view (or, under `strict`, pacu's decisions too): the
 * request against the operation's documented request (client side), the answer against the status
 * rules and the success or error envelope (provider side), with the same functions `pacu check`'s
 * envelope rules use. A request no operation has is a client finding, and its answer is not judged.
 *
 * @example
 * const verdict = judgeExchange(spec, exchange, 'documented');
 * for (const finding of verdict.findings) console.log(finding.side, finding.rule, finding.reason);
 */
export function judgeExchange(spec: Spec, exchange: ObservedExchange, profile: Profile): ExchangeVerdict {
  return verdictOf(spec, exchange, profile, (operation, response) =>
    judgeResponse(spec, operation, response, profile),
  );
}

/** Judges one exchange after another: {@link createExchangeJudge}. */
export type ExchangeJudge = (
  exchange: ObservedExchange,
  /** The request's route, when the caller routed it already (a proxy routes before it forwards). */
  routed?: RouteResult,
) => ExchangeVerdict;

/** The verdict on an answer's half, for one operation, status and content type its text came with. */
interface JudgedAnswer {
  readonly operation: OperationSpec;
  readonly status: number;
  readonly type: string | undefined;
  readonly drafts: Draft[];
}

/** Operation, status and content type combinations remembered for one text (one, nearly always). */
const KINDS_PER_ANSWER = 8;

/** Answers longer than this (in characters or bytes) are judged each time, not remembered. */
const REMEMBERED_ANSWER_LENGTH = 64 * 1024;
/** Distinct answers a watcher of traffic remembers; the oldest is forgotten first. */
export const REMEMBERED_ANSWERS = 256;

/**
 * Whether what is made of an answer (its verdict, its redacted HAR text, its decoded text) is worth
 * remembering: only reads repeat their answers (a write's answer is a new record each time; keeping
 * it would only carry it into the old generation), and only answers of a bounded `length` (of the
 * text or of the bytes, whichever the memory is keyed by).
 */
export const remembersAnswer = (method: string, length: number): boolean =>
  method === 'GET' && length <= REMEMBERED_ANSWER_LENGTH;

/**
 * {@link judgeExchange} for a stream of exchanges (`pacu proxy`): the same verdicts, with the
 * answer's half remembered ({@link remembersAnswer}), since it depends on the operation, status,
 * content type and text alone and a provider answers a read with the same bytes. The request's half
 * is judged every time.
 *
 * @example
 * const judge = createExchangeJudge(spec, 'documented');
 * for (const exchange of exchanges) report(judge(exchange).findings);
 */
export function createExchangeJudge(spec: Spec, profile: Profile): ExchangeJudge {
  // By text first (the text is the key that costs: hashed once, never copied into a longer one),
  // then by operation, status and content type, compared as they are: a key made of them cost a
  // new string, and its hash, on every answer.
  const remembered = boundedMemory<string, JudgedAnswer[]>(REMEMBERED_ANSWERS);
  const answerDrafts = (operation: OperationSpec, response: ApiResponse): Draft[] => {
    const type = response.headers['content-type'];
    let judged = remembered.get(response.text);
    if (judged)
      for (const seen of judged)
        if (seen.operation === operation && seen.status === response.status && seen.type === type)
          return seen.drafts;
    const drafts = judgeResponse(spec, operation, response, profile);
    if (!judged) {
      judged = [];
      remembered.set(response.text, judged);
    }
    if (judged.length < KINDS_PER_ANSWER) judged.push({ operation, status: response.status, type, drafts });
    return drafts;
  };
  const fresh = (operation: OperationSpec, response: ApiResponse): Draft[] =>
    judgeResponse(spec, operation, response, profile);
  return (exchange, routed) =>
    verdictOf(
      spec,
      exchange,
      profile,
      remembersAnswer(exchange.request.method, exchange.response.text.length) ? answerDrafts : fresh,
      routed,
    );
}

/** A warm-up under way: stopped by the surface that closes before it ends. */
export interface JudgeWarmUp {
  stop(): void;
}

/**
 * Compile every schema a judge of `spec` under `profile` asks for, an operation a turn of the event
 * loop, so that a surface which starts it once it listens judges its first exchanges without
 * compiling (decision 205). Exchanges that come meanwhile wait one operation's schemas at most.
 */
export function warmJudge(spec: Spec, profile: Profile): JudgeWarmUp {
  const operations = [...spec.operations];
  let timer: NodeJS.Immediate | undefined;
  const next = (): void => {
    const operation = operations.shift();
    timer = undefined;
    if (!operation) return;
    try {
      requestChecker(operation, profile);
      compileAnswerChecks(spec, operation.id, profile);
    } catch {
      // A schema that will not compile fails where the judge asks for it, as it did before.
      return;
    }
    timer = setImmediate(next);
  };
  timer = setImmediate(next);
  return {
    stop() {
      if (timer) clearImmediate(timer);
      timer = undefined;
    },
  };
}

function verdictOf(
  spec: Spec,
  exchange: ObservedExchange,
  profile: Profile,
  answerDrafts: (operation: OperationSpec, response: ApiResponse) => Draft[],
  routed: RouteResult = routeRequest(spec, exchange.request.method, exchange.request.path),
): ExchangeVerdict {
  const { request, response } = exchange;
  if (routed.kind !== 'operation') {
    const reason =
      routed.kind === 'method-not-allowed'
        ? `the description has ${routed.allowed.join(', ')} ${request.path.split('?')[0]}, not ${request.method}`
        : `the description has no operation at ${request.method} ${request.path.split('?')[0]}`;
    return {
      operation: undefined,
      checked: ROUTE_ONLY,
      findings: [
        {
          side: faultOf(ROUTE),
          rule: ROUTE,
          profile: 'documented',
          reason,
          operation: undefined,
          exchange,
        },
      ],
    };
  }
  const operation = routed.operation;
  const asked = judgeRequest(operation, request, profile);
  const answered = answerDrafts(operation, response);
  const drafts = asked.length === 0 ? answered : [...asked, ...answered];
  return {
    operation,
    checked: checkedRules(operation, isSuccess(response)),
    findings:
      drafts.length === 0 ? [] : drafts.map((draft) => ({ ...draft, operation: operation.id, exchange })),
  };
}

const checkedLists = new WeakMap<OperationSpec, { success: readonly string[]; error: readonly string[] }>();

/** The rules an exchange of `operation` is judged by: the same few lists, made once per operation. */
function checkedRules(operation: OperationSpec, success: boolean): readonly string[] {
  let lists = checkedLists.get(operation);
  if (!lists) {
    const rules = [
      ROUTE,
      ...(operation.requestBody ? [REQUEST_TYPE, REQUEST_BODY] : []),
      STATUS,
      JSON_ANSWER,
    ];
    lists = { success: [...rules, SUCCESS], error: [...rules, ERROR] };
    checkedLists.set(operation, lists);
  }
  return success ? lists.success : lists.error;
}
