import type { Redactor } from '../http/index.ts';
import type { OperationId, Profile } from '../spec/index.ts';
import {
  type ApiRequest,
  buildReport,
  type Report,
  type ResultDraft,
  type RuleStatus,
} from '../suites/index.ts';
import type { SentRequest } from './pact-adapter.ts';
import type { PactInteraction } from './pact-file.ts';

/** What one interaction came to, before it becomes a report row. */
export interface InteractionOutcome {
  readonly interaction: PactInteraction;
  /** Undefined when the spec has no operation for the interaction's request. */
  readonly operation: OperationId | undefined;
  readonly status: RuleStatus;
  /** Why it failed (one finding or mismatch a line), or why it was skipped. */
  readonly reasons: readonly string[];
  readonly durationMs: number;
  /** What the user should know even when it passed (a state run without setup). */
  readonly notes?: readonly string[];
  /** The request as the verifier sent it, provider-state values filled in. */
  readonly sent?: SentRequest;
  readonly response?: {
    readonly status: number;
    readonly headers: Record<string, string>;
    readonly body: string;
  };
}

/** The pact's request as pacu's plain request type, for evidence and replay. */
function interactionRequest(interaction: PactInteraction): ApiRequest {
  const query = new URLSearchParams();
  for (const [name, values] of Object.entries(interaction.request.query))
    for (const value of values) query.append(name, value);
  const text = query.toString();
  const body = interaction.request.body;
  return {
    method: interaction.request.method as ApiRequest['method'],
    path: `${interaction.request.path}${text ? `?${text}` : ''}`,
    headers: Object.fromEntries(
      Object.entries(interaction.request.headers).map(([name, values]) => [name, values.join(', ')]),
    ),
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  };
}

/** Headers worth replaying: what the pact names, and the credential and content headers. */
const REPLAYED = new Set(['authorization', 'content-type', 'accept']);

/**
 * The request as the verifier sent it (provider-state values filled in). Its path is already
 * relative to the base URL (a pact path `/v3/users` went to `<base>/v3/users`), so it is kept as is:
 * the curl line is then what the provider received. Credentials are left to the report's redaction.
 */
export function sentRequest(sent: SentRequest, named: readonly string[] = []): ApiRequest {
  return {
    method: sent.method.toUpperCase() as ApiRequest['method'],
    path: sent.url,
    headers: Object.fromEntries(
      Object.entries(sent.headers).filter(([name]) => REPLAYED.has(name) || named.includes(name)),
    ),
    ...(sent.body !== undefined ? { body: sent.body } : {}),
  };
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function toRule(outcome: InteractionOutcome, profile: Profile): ResultDraft {
  const { interaction } = outcome;
  const id = `contract.${slug(interaction.consumer)}.${slug(interaction.description)}`;
  // An interaction for a path the spec lacks belongs to no operation; reporters show it as `unknown`.
  const operation = outcome.operation ?? 'unknown';
  const request = outcome.sent
    ? sentRequest(outcome.sent, Object.keys(interaction.request.headers))
    : interactionRequest(interaction);
  return {
    id,
    category: 'contract',
    operation,
    profile,
    status: outcome.status,
    runs: 1,
    durationMs: outcome.durationMs,
    title: `${interaction.consumer} → ${interaction.provider}: ${interaction.description}`,
    ...(outcome.status === 'skipped' ? { skipReason: outcome.reasons.join('; ') } : {}),
    ...(outcome.notes && outcome.notes.length > 0 ? { notes: outcome.notes } : {}),
    ...(outcome.status === 'failed'
      ? {
          failure: {
            id: `${id}/${operation}`,
            reason: outcome.reasons.join('\n'),
            request,
            ...(outcome.response ? { response: outcome.response } : {}),
          },
        }
      : {}),
  };
}

export interface ContractReportInput {
  /** The target URL, or `spec:<file>` for a check against the spec. */
  readonly target: string;
  /** Base URL the curl lines of failures point at. */
  readonly baseUrl: string;
  readonly profile: Profile;
  readonly startedAt: Date;
  readonly outcomes: readonly InteractionOutcome[];
  /** Knows the run's credentials; by default Authorization values and access tokens are still redacted. */
  readonly redactor?: Redactor;
}

/** A `verify` report: one contract rule per interaction, through the same pipeline as `pacu check`. */
export function contractReport(input: ContractReportInput): Report {
  return buildReport({
    command: 'verify',
    target: input.target,
    baseUrl: input.baseUrl,
    seed: 0,
    profile: input.profile,
    startedAt: input.startedAt,
    results: input.outcomes.map((outcome) => toRule(outcome, input.profile)),
    ...(input.redactor ? { redactor: input.redactor } : {}),
  });
}
