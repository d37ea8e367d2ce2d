import { loadSpec, type OperationId, type Profile } from '../spec/index.ts';
import type { Report } from '../suites/index.ts';
import { checkRequest } from './check-request.ts';
import { checkResponse } from './check-response.ts';
import { contractReport } from './contract-report.ts';
import { collectPactFiles, type PactInteraction, readPactFile } from './pact-file.ts';
import { routeOperation } from './route-operation.ts';
import type { SpecFinding } from './spec-finding.ts';

export interface PactSpecCheckOptions {
  /** OpenAPI description to check against. @default pacu's spec/openapi.yaml */
  readonly specFile?: string;
  /** `strict`: the whole spec, pacu's decisions included; `documented`: the description only. @default 'documented' */
  readonly profile?: Profile;
}

/** One interaction and everything in it that the spec disagrees with (nothing: it agrees). */
export interface InteractionSpecCheck {
  readonly interaction: PactInteraction;
  /** The operation its request is for; undefined when the spec has none at that method and path. */
  readonly operation?: OperationId;
  readonly findings: readonly SpecFinding[];
}

export interface PactSpecCheck {
  readonly specFile: string;
  /** The spec's first server URL; failures' curl lines point at it. */
  readonly serverUrl: string;
  readonly profile: Profile;
  readonly pactFiles: readonly string[];
  readonly interactions: readonly InteractionSpecCheck[];
}

export const PACT_SPEC_CHECK_DEFAULTS = { profile: 'documented' } as const satisfies PactSpecCheckOptions;

/**
 * Check every HTTP interaction of the pact files (or folders of them) against the OpenAPI
 * description, without calling any provider: its request (path, method, query, headers, body) and
 * the response it expects (status, body, and each matcher against the schema at its path).
 *
 * @example
 * const check = await checkPactsAgainstSpec(['pacts/']);
 * check.interactions.filter((item) => item.findings.length > 0);
 */
export async function checkPactsAgainstSpec(
  pactPaths: readonly string[],
  options: PactSpecCheckOptions = {},
): Promise<PactSpecCheck> {
  const profile = options.profile ?? PACT_SPEC_CHECK_DEFAULTS.profile;
  const spec = await loadSpec(options.specFile);
  const pactFiles = await collectPactFiles(pactPaths);
  const interactions: InteractionSpecCheck[] = [];
  for (const file of pactFiles) {
    for (const interaction of await readPactFile(file)) {
      const route = routeOperation(spec, interaction.request.method, interaction.request.path);
      if ('finding' in route) {
        interactions.push({ interaction, findings: [route.finding] });
        continue;
      }
      interactions.push({
        interaction,
        operation: route.operation.id,
        findings: [
          ...checkRequest(route.operation, interaction.request, route.pathParams, profile),
          ...checkResponse(route.operation, interaction.response, profile),
        ],
      });
    }
  }
  const servers = spec.document.servers as ReadonlyArray<{ url?: string }> | undefined;
  return { specFile: spec.file, serverUrl: servers?.[0]?.url ?? '', profile, pactFiles, interactions };
}

/** One line per finding: `<description>: response $.body.data.amount: must be number`. */
export function formatFindings(check: InteractionSpecCheck): string[] {
  return check.findings.map(
    (finding) => `${check.interaction.description}: ${finding.part} ${finding.path}: ${finding.message}`,
  );
}

/** Where the curl lines of an `--against-spec` report send: the provider the user names. */
export const AGAINST_SPEC_CURL_BASE = '$PACU_TARGET';

/** The check as a `verify` report: a failed contract rule per interaction with findings. */
export function pactSpecReport(check: PactSpecCheck, startedAt: Date): Report {
  return contractReport({
    target: `spec:${check.specFile}`,
    // No provider was called, and the spec's server is an example host: the user's provider fills in.
    baseUrl: AGAINST_SPEC_CURL_BASE,
    profile: check.profile,
    startedAt,
    outcomes: check.interactions.map((item) => ({
      interaction: item.interaction,
      operation: item.operation,
      status: item.findings.length > 0 ? 'failed' : 'passed',
      reasons: formatFindings(item),
      durationMs: 0,
    })),
  });
}
