import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { loadSpec, type Profile } from '../spec/index.ts';
import {
  API_CLIENT_DEFAULTS,
  assertTargetIsTheApi,
  assertTargetReachable,
  optionWording,
  type Report,
  type TargetConfig,
  targetRedactor,
  type Wording,
} from '../suites/index.ts';
import { outcomesFromBroker } from './broker-outcomes.ts';
import { assertBrokerReachable } from './broker-probe.ts';
import { completeIds, type MissingIds } from './complete-ids.ts';
import { contractReport, type InteractionOutcome, sentRequest } from './contract-report.ts';
import type { PactSource, SentRequest } from './pact-adapter.ts';
import { collectPactFiles, type PactInteraction, readPactFile } from './pact-file.ts';
import { PACU_PROVIDER, pacuPactDirs } from './pacu-pacts.ts';
import { KNOWN_PROVIDER_STATES } from './provider-state-names.ts';
import { unmetStateReason } from './provider-states.ts';
import { routeOperation } from './route-operation.ts';
import { runVerifierProcess } from './run-verifier-process.ts';
import { outcomesFromFiles, verifierResult } from './verification-outcomes.ts';
import { withHints } from './verify-hints.ts';

export interface BrokerOptions {
  readonly url: string;
  /** The provider's version, e.g. a git sha; required by the broker. */
  readonly providerVersion: string;
  /** Publish the results to the broker. @default false */
  readonly publish?: boolean;
  readonly providerBranch?: string;
  /** @default 'pacu-api' */
  readonly provider?: string;
  readonly token?: string;
  readonly username?: string;
  readonly password?: string;
  /** @default [{ mainBranch: true }, { deployedOrReleased: true }] (the broker's recommended set) */
  readonly consumerVersionSelectors?: readonly Readonly<Record<string, unknown>>[];
  /** Pending pacts: a new pact's failure does not fail the build until it has passed once. @default false */
  readonly enablePending?: boolean;
  /** ISO date: also verify work-in-progress pacts published since then (needs pending). */
  readonly includeWipPactsSince?: string;
}

export interface VerifyPactsOptions {
  readonly target: TargetConfig;
  /** Pact files or folders of them. @default pacu's own pacts for the profile ({@link pacuPactDirs}) */
  readonly pacts?: readonly string[];
  /** Take the pacts from a Pact Broker instead of files. */
  readonly broker?: BrokerOptions;
  /** Time a request to the provider may take. @default VERIFY_DEFAULTS.timeoutMs (the API client's) */
  readonly timeoutMs?: number;
  /** `documented`: pacu's pacts of what the description states; `strict`: its decisions too. @default 'documented' */
  readonly profile?: Profile;
  /** How reasons name a setting to give. @default its option, e.g. `target.ids.cardId` */
  readonly word?: Wording;
}

/** The defaults of {@link VerifyPactsOptions}, read by `verifyPacts` and by `pacu verify --help`. */
export const VERIFY_DEFAULTS = {
  // One home for the time a request may take: the API client's.
  timeoutMs: API_CLIENT_DEFAULTS.timeoutMs,
  word: optionWording,
  profile: 'documented',
  provider: PACU_PROVIDER,
  consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }],
  enablePending: false,
} as const;

/** {@link VerifyPactsOptions} with every default in place, resolved once at the boundary. */
export type ResolvedVerifyOptions = VerifyPactsOptions &
  Required<Pick<VerifyPactsOptions, 'timeoutMs' | 'profile' | 'word'>>;

export function resolveVerifyOptions(options: VerifyPactsOptions): ResolvedVerifyOptions {
  return {
    ...options,
    timeoutMs: options.timeoutMs ?? VERIFY_DEFAULTS.timeoutMs,
    profile: options.profile ?? VERIFY_DEFAULTS.profile,
    word: options.word ?? VERIFY_DEFAULTS.word,
  };
}

/** Copies of the pact files holding only `interactions` (already parsed), for the verifier. */
async function writeRunnable(interactions: readonly PactInteraction[], dir: string): Promise<string[]> {
  const byFile = new Map<string, PactInteraction[]>();
  for (const interaction of interactions)
    byFile.set(interaction.file, [...(byFile.get(interaction.file) ?? []), interaction]);
  const written: string[] = [];
  for (const [index, [file, items]] of [...byFile].entries()) {
    const copy = join(dir, `${index}-${basename(file)}`);
    const pact = { ...items[0]?.source.pact, interactions: items.map((item) => item.source.interaction) };
    await writeFile(copy, JSON.stringify(pact));
    written.push(copy);
  }
  return written;
}

/** Known states that this target cannot meet; a state pacu does not know is run without setup. */
function unmetStates(
  target: TargetConfig,
  interactions: readonly PactInteraction[],
  why: MissingIds,
  word: Wording,
) {
  const unmet = new Map<PactInteraction, string[]>();
  for (const interaction of interactions) {
    const reasons = interaction.providerStates
      .filter((state) => KNOWN_PROVIDER_STATES.includes(state.name))
      .flatMap((state) => unmetStateReason(target, state.name, why, word) ?? []);
    if (reasons.length > 0) unmet.set(interaction, reasons);
  }
  return unmet;
}

function brokerSource(broker: BrokerOptions): PactSource {
  return {
    kind: 'broker',
    url: broker.url,
    provider: broker.provider ?? VERIFY_DEFAULTS.provider,
    providerVersion: broker.providerVersion,
    publish: broker.publish ?? false,
    consumerVersionSelectors: broker.consumerVersionSelectors ?? VERIFY_DEFAULTS.consumerVersionSelectors,
    enablePending: broker.enablePending ?? VERIFY_DEFAULTS.enablePending,
    ...(broker.includeWipPactsSince ? { includeWipPactsSince: broker.includeWipPactsSince } : {}),
    ...(broker.providerBranch ? { providerBranch: broker.providerBranch } : {}),
    ...(broker.token ? { token: broker.token } : {}),
    ...(broker.username ? { username: broker.username, password: broker.password ?? '' } : {}),
  };
}

/**
 * Verify pacts against any target with Pact's verifier, pacu setting each provider state up. A known
 * state this target cannot meet skips its interaction with the reason (never made-up data); an
 * unknown state runs without setup, as Pact does. Throws only for usage problems.
 */
export async function verifyPacts(given: VerifyPactsOptions): Promise<Report> {
  const startedAt = new Date();
  const options = resolveVerifyOptions(given);
  const { target, timeoutMs, profile, word } = options;
  const redactor = targetRedactor(target, options.broker?.token ? [options.broker.token] : []);
  const report = (outcomes: InteractionOutcome[]): Report =>
    contractReport({
      target: target.baseUrl,
      baseUrl: target.baseUrl,
      profile,
      startedAt,
      outcomes,
      redactor,
    });
  const transport = {
    baseUrl: target.baseUrl,
    timeoutMs,
    ...(target.headers ? { headers: target.headers } : {}),
  };
  // pacu's own pacts describe this API: a target that is not it is a usage error, as for `pacu check`.
  // Other pacts may describe any provider, and Pact judges them as they are.
  if (options.pacts || options.broker) await assertTargetReachable(transport);
  else await assertTargetIsTheApi(transport, target);

  if (options.broker) {
    const source = brokerSource(options.broker);
    await assertBrokerReachable(options.broker, timeoutMs);
    const reply = await runVerifierProcess({ config: target, source, timeoutMs });
    const spec = await loadSpec();
    const operationOf = (sent: SentRequest) => {
      const request = sentRequest(sent);
      const route = routeOperation(spec, request.method, request.path);
      return 'operation' in route ? route.operation.id : undefined;
    };
    return report(outcomesFromBroker(options.broker.url, verifierResult(reply), operationOf));
  }

  const spec = await loadSpec();
  const files = await collectPactFiles(options.pacts ?? pacuPactDirs(profile));
  const interactions: PactInteraction[] = (await Promise.all(files.map(readPactFile))).flat();
  // The same id resolution as `pacu check`: a user from /users, an account created for it.
  const completed = await completeIds(target, interactions, timeoutMs, word);
  const unmet = unmetStates(completed.target, interactions, completed.missing, word);
  const runnable = interactions.filter((interaction) => !unmet.has(interaction));
  const dir = await mkdtemp(join(tmpdir(), 'pacu-verify-'));
  try {
    const copies = await writeRunnable(runnable, dir);
    const reply =
      copies.length > 0
        ? await runVerifierProcess({
            config: completed.target,
            source: { kind: 'files', files: copies },
            timeoutMs,
          })
        : undefined;
    const operationOf = (interaction: PactInteraction) => {
      const route = routeOperation(spec, interaction.request.method, interaction.request.path);
      return 'operation' in route ? route.operation.id : undefined;
    };
    return report(withHints(outcomesFromFiles(interactions, unmet, operationOf, reply), target.baseUrl));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
