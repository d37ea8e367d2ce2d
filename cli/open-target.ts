import { existsSync } from 'node:fs';
import path from 'node:path';
import { type RunningMock, startMock } from '../mock/index.ts';
import {
  readConfigFile,
  resolveTargetConfig,
  type TargetConfig,
  type TargetConfigInput,
} from '../suites/index.ts';
import type { RedactionNames } from './redaction-options.ts';

/** Flags that are not a target's settings: read here, not by resolveTargetConfig. */
const NOT_SETTINGS = new Set(['header', 'timeout', 'redactHeader', 'redactField']);

/** The config file pacu reads without `--config`, from the working directory. */
const CONFIG_FILE_NAME = 'pacu.config.json';

/** The target flags of `check` and `verify`, as commander hands them over. */
export interface TargetFlags extends TargetConfigInput, RedactionNames {
  readonly config?: string;
  readonly header?: Readonly<Record<string, string>>;
  readonly timeout?: number;
}

/** A target ready to check: a URL someone gave, or a pacu mock started in-process for the run. */
export interface OpenTarget {
  readonly target: TargetConfig;
  /** The embedded mock, when pacu started one. */
  readonly mock?: RunningMock;
  close(): Promise<void>;
}

/** What an embedded pacu mock tells a run: its URL, demo client, seeded ids and control API. */
export function embeddedMockTarget(mock: RunningMock): TargetConfigInput {
  return {
    target: mock.url,
    clientId: mock.demoClient.clientId,
    clientSecret: mock.demoClient.clientSecret,
    cardId: mock.seeded.cardId,
    cardTransactionId: mock.seeded.cardTransactionId,
    pushToCardId: mock.seeded.pushToCardId,
    accountId: mock.seeded.merchantAccountId,
    userId: mock.seeded.userId,
    controlUrl: mock.origin,
  };
}

/** `--config FILE`, else ./pacu.config.json when it exists, else nothing. */
async function discoverConfig(
  file: string | undefined,
  cwd: string = process.cwd(),
): Promise<TargetConfigInput> {
  if (file) return readConfigFile(file);
  const found = path.join(cwd, CONFIG_FILE_NAME);
  return existsSync(found) ? readConfigFile(found) : {};
}

/**
 * Resolve where `check` and `verify` run, once and alike: flags win over the config file (given or
 * discovered), the file over `PACU_TARGET`/`PACU_CLIENT_ID`/`PACU_CLIENT_SECRET`. With no target
 * anywhere, pacu starts its mock in-process (manual clock, seeded ids, its control API), so both
 * commands check the same embedded provider the same way.
 */
export async function openTarget(
  flags: TargetFlags,
  extra: TargetConfigInput = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<OpenTarget> {
  const file = { ...(await discoverConfig(flags.config)), ...extra };
  const given = Object.fromEntries(
    Object.entries(flags).filter(([key, value]) => value !== undefined && !NOT_SETTINGS.has(key)),
  ) as TargetConfigInput;
  const mock =
    (given.target ?? file.target ?? env.PACU_TARGET)
      ? undefined
      : await startMock({ clock: 'manual', log: () => {} });
  try {
    const resolved = resolveTargetConfig(given, { ...(mock ? embeddedMockTarget(mock) : {}), ...file }, env);
    const target: TargetConfig = {
      ...resolved,
      ...(flags.header && Object.keys(flags.header).length > 0 ? { headers: flags.header } : {}),
      ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout } : {}),
      ...(flags.redactHeader ? { redactHeaders: flags.redactHeader } : {}),
      ...(flags.redactField ? { redactFields: flags.redactField } : {}),
    };
    return { target, ...(mock ? { mock } : {}), close: async () => mock?.close() };
  } catch (error) {
    await mock?.close();
    throw error;
  }
}
