import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { loadSpec, type Profile } from '../spec/index.ts';
import { assertTargetReachable, createRedactor, type Report, type TargetConfig } from '../suites/index.ts';
import { PACU_PACT_DIR, PACU_PROVIDER } from './consumer-kit.ts';
import { contractReport, type InteractionOutcome } from './contract-report.ts';
import type { PactSource } from './pact-adapter.ts';
import { collectPactFiles, type PactInteraction, readPactFile } from './pact-file.ts';
import { unmetStateReason } from './provider-states.ts';
import { routeOperation } from './route-operation.ts';
import { runVerifierProcess } from './run-verifier-process.ts';
import { outcomesFromBroker, outcomesFromFiles } from './verification-outcomes.ts';

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
}

export interface VerifyPactsOptions {
  readonly target: TargetConfig;
  /** Pact files or folders of them. @default pacu's own pacts (contracts/pacts/) */
  readonly pacts?: readonly string[];
  /** Take the pacts from a Pact Broker instead of files. */
  readonly broker?: BrokerOptions;
  /** Time a request to the provider may take. @default 10000 */
  readonly timeoutMs?: number;
  /** Recorded in the report. @default 'strict' */
  readonly profile?: Profile;
}

export const VERIFY_DEFAULTS = { timeoutMs: 10_000, profile: 'strict', provider: PACU_PROVIDER } as const;

const interactionKey = (description: string, states: readonly string[]): string =>
  JSON.stringify([description, ...states]);

/** Copies of the pact files without the interactions whose provider states cannot be met. */
async function runnablePacts(
  files: readonly string[],
  skip: ReadonlySet<string>,
  dir: string,
): Promise<string[]> {
  const written: string[] = [];
  for (const [index, file] of files.entries()) {
    const pact = JSON.parse(await readFile(file, 'utf8')) as { interactions: Array<Record<string, unknown>> };
    pact.interactions = pact.interactions.filter((item) => {
      const states = Array.isArray(item.providerStates)
        ? item.providerStates.map((state: { name?: unknown }) => String(state.name))
        : typeof item.providerState === 'string'
          ? [item.providerState]
          : [];
      return !skip.has(interactionKey(String(item.description ?? ''), states));
    });
    if (pact.interactions.length === 0) continue;
    const copy = join(dir, `${index}-${basename(file)}`);
    await writeFile(copy, JSON.stringify(pact));
    written.push(copy);
  }
  return written;
}

/**
 * Verify pacts against any target with Pact's verifier. pacu sets each provider state up (through
 * a pacu mock's control API, or the ids of the target config); an interaction whose state cannot be
 * met on this target is skipped with the reason, never run against made-up data. Throws only for
 * usage problems ({@link TargetUnreachableError} when the target does not answer).
 */
export async function verifyPacts(options: VerifyPactsOptions): Promise<Report> {
  const startedAt = new Date();
  const target = options.target;
  const timeoutMs = options.timeoutMs ?? VERIFY_DEFAULTS.timeoutMs;
  const profile = options.profile ?? VERIFY_DEFAULTS.profile;
  const redactor = createRedactor({
    ...(target.clientId !== undefined ? { clientId: target.clientId } : {}),
    ...(target.clientSecret !== undefined ? { clientSecret: target.clientSecret } : {}),
    others: options.broker?.token ? [options.broker.token] : [],
  });
  const report = (outcomes: InteractionOutcome[]): Report =>
    contractReport({
      target: target.baseUrl,
      baseUrl: target.baseUrl,
      profile,
      startedAt,
      outcomes,
      redactor,
    });
  await assertTargetReachable({ baseUrl: target.baseUrl, timeoutMs });

  if (options.broker) {
    const broker = options.broker;
    const source: PactSource = {
      kind: 'broker',
      url: broker.url,
      provider: broker.provider ?? VERIFY_DEFAULTS.provider,
      providerVersion: broker.providerVersion,
      publish: broker.publish ?? false,
      ...(broker.providerBranch ? { providerBranch: broker.providerBranch } : {}),
      ...(broker.token ? { token: broker.token } : {}),
      ...(broker.username ? { username: broker.username, password: broker.password ?? '' } : {}),
    };
    const reply = await runVerifierProcess({ config: target, source, timeoutMs });
    return report(outcomesFromBroker(broker.url, reply));
  }

  const spec = await loadSpec();
  const files = await collectPactFiles(options.pacts ?? [PACU_PACT_DIR]);
  const interactions: PactInteraction[] = (await Promise.all(files.map(readPactFile))).flat();
  const unmet = new Map<PactInteraction, string[]>();
  for (const interaction of interactions) {
    const reasons = interaction.providerStates.flatMap((state) => unmetStateReason(target, state.name) ?? []);
    if (reasons.length > 0) unmet.set(interaction, reasons);
  }
  const skip = new Set(
    [...unmet.keys()].map((item) =>
      interactionKey(
        item.description,
        item.providerStates.map((state) => state.name),
      ),
    ),
  );
  const dir = await mkdtemp(join(tmpdir(), 'pacu-verify-'));
  try {
    const runnable = await runnablePacts(files, skip, dir);
    const reply =
      runnable.length > 0
        ? await runVerifierProcess({ config: target, source: { kind: 'files', files: runnable }, timeoutMs })
        : undefined;
    const operationOf = (interaction: PactInteraction) => {
      const route = routeOperation(spec, interaction.request.method, interaction.request.path);
      return 'operation' in route ? route.operation.id : undefined;
    };
    return report(outcomesFromFiles(interactions, unmet, operationOf, reply));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
