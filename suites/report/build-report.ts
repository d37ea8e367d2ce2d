import type { Redactor } from '../../http/index.ts';
import { createRedactor } from '../../http/index.ts';
import { PACU_VERSION, type Profile } from '../../spec/index.ts';
import type { ApiRequest } from '../target/api-request.ts';
import { renderCurl } from '../target/curl.ts';
import type { RecordedResponse, Report, RuleFailure, RuleResult } from './report.ts';
import { summarise } from './report.ts';

/** A failure as a rule or a verifier found it: raw evidence, not yet redacted, no curl yet. */
export interface FailureDraft extends Omit<RuleFailure, 'curl' | 'response'> {
  readonly response?:
    | RecordedResponse
    | { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly text: string };
}

/** A result before the pipeline: its failure (if any) is a draft. */
export interface ResultDraft extends Omit<RuleResult, 'failure'> {
  readonly failure?: FailureDraft;
}

export interface ReportInput {
  readonly command: Report['command'];
  /** What was checked: a base URL, or `spec:<file>` for pacts against the spec. */
  readonly target: string;
  /** Base URL the curl lines point at. */
  readonly baseUrl: string;
  readonly seed: number;
  readonly profile: Profile;
  readonly startedAt: Date;
  readonly results: readonly ResultDraft[];
  /** @default a redactor that knows no secrets (Authorization values and access tokens still go) */
  readonly redactor?: Redactor;
  /** Extra top-level facts of the run (token refreshes, the replay line…). */
  readonly notes?: readonly string[];
  /** Non-secret flags that shaped the run, for the replay line of each failure. */
  readonly rerunFlags?: readonly string[];
  readonly traffic?: Report['traffic'];
  readonly learned?: Report['learned'];
}

function recorded(response: NonNullable<FailureDraft['response']>): RecordedResponse {
  return {
    status: response.status,
    headers: response.headers,
    body: 'body' in response ? response.body : response.text,
  };
}

/**
 * The one pipeline from results to a {@link Report}, shared by `pacu check` and `pacu verify`: every
 * string is redacted first, then each failure's curl is rendered from the redacted request, so no
 * reporter ever sees a secret.
 */
export function buildReport(input: ReportInput): Report {
  const redactor = input.redactor ?? createRedactor();
  const rules: RuleResult[] = input.results.map((draft) => {
    const { failure, ...result } = draft;
    if (!failure) return redactor.redact(result);
    const { response, ...rest } = failure;
    const redacted = redactor.redact({ ...rest, ...(response ? { response: recorded(response) } : {}) });
    const request: ApiRequest = redacted.request;
    return { ...redactor.redact(result), failure: { ...redacted, curl: renderCurl(input.baseUrl, request) } };
  });
  return {
    tool: 'pacu',
    command: input.command,
    version: PACU_VERSION,
    target: input.target,
    seed: input.seed,
    profile: input.profile,
    startedAt: input.startedAt.toISOString(),
    durationMs: Date.now() - input.startedAt.getTime(),
    summary: summarise(rules),
    rules,
    ...(input.notes && input.notes.length > 0 ? { notes: redactor.redact([...input.notes]) } : {}),
    ...(input.rerunFlags ? { rerunFlags: redactor.redact([...input.rerunFlags]) } : {}),
    ...(input.traffic ? { traffic: input.traffic } : {}),
    ...(input.learned ? { learned: redactor.redact(input.learned) } : {}),
  };
}
