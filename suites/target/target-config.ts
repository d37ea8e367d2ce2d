import { readFile } from 'node:fs/promises';
import { webhookSecretProblem } from '../../http/index.ts';
import { ConfigError, jsonProblem, SCOPES, type Scope } from '../../spec/index.ts';

/** Ids of records that no operation creates; a rule that needs one the user did not give is skipped. */
export interface TargetIds {
  readonly cardId?: string;
  readonly cardTransactionId?: string;
  readonly pushToCardId?: string;
  readonly accountId?: string;
  readonly userId?: string;
}

/** Where and how to reach a provider: the pacu mock, a real sandbox or anything in between. */
export interface TargetConfig {
  /** Base URL including `/v3`. */
  readonly baseUrl: string;
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** @default ['card', 'us_account'] */
  readonly scopes: readonly Scope[];
  readonly ids: TargetIds;
  /** Origin of a pacu mock's control API (`/__pacu`), when the target is one. */
  readonly controlUrl?: string;
  /** Headers sent with every request, e.g. an API key a sandbox wants (`--header NAME:VALUE`); redacted in reports. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Time one exchange with the target may take (`--timeout`). @default API_CLIENT_DEFAULTS.timeoutMs */
  readonly timeoutMs?: number;
  /** A webhook receiver the target delivers to, and its signing secret (for lifecycle rules). */
  readonly webhook?: { readonly receiverUrl?: string; readonly secret: string };
  /** Header names whose values are credentials in this target's traffic (`--redact-header`). */
  readonly redactHeaders?: readonly string[];
  /** JSON or form field names whose values are credentials in it (`--redact-field`). */
  readonly redactFields?: readonly string[];
}

/** What flags, environment and a config file may each say; flags win over the file, the file over env. */
export interface TargetConfigInput {
  readonly target?: string;
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly scopes?: string;
  readonly cardId?: string;
  readonly cardTransactionId?: string;
  readonly pushToCardId?: string;
  readonly accountId?: string;
  readonly userId?: string;
  readonly controlUrl?: string;
  readonly webhookSecret?: string;
  readonly webhookReceiverUrl?: string;
}

/** Every id a target may need, in the order the interface's operations use them. */
export const TARGET_ID_KEYS: readonly (keyof TargetIds)[] = [
  'accountId',
  'userId',
  'cardId',
  'cardTransactionId',
  'pushToCardId',
];

export const DEFAULT_SCOPES: readonly Scope[] = SCOPES;
const KNOWN_SCOPES: readonly string[] = DEFAULT_SCOPES;
const CONFIG_KEYS: ReadonlySet<string> = new Set<keyof TargetConfigInput>([
  'target',
  'clientId',
  'clientSecret',
  'scopes',
  'cardId',
  'cardTransactionId',
  'pushToCardId',
  'accountId',
  'userId',
  'controlUrl',
  'webhookSecret',
  'webhookReceiverUrl',
]);

/** Read a `pacu.config.json`; any problem is a {@link ConfigError} naming the file. */
export async function readConfigFile(file: string): Promise<TargetConfigInput> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new ConfigError(
      `pacu: cannot read config file ${file}: ${(cause as NodeJS.ErrnoException).code ?? cause}`,
      { cause },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`pacu: config file ${file}: ${jsonProblem(text, cause)}`, {
      cause,
    });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError(`pacu: config file ${file} must hold a JSON object`);
  }
  for (const [key, value] of Object.entries(parsed)) {
    if (!CONFIG_KEYS.has(key)) throw new ConfigError(`pacu: config file ${file} has an unknown key "${key}"`);
    if (typeof value !== 'string')
      throw new ConfigError(`pacu: config file ${file}: "${key}" must be a string`);
  }
  return parsed as TargetConfigInput;
}

function parseUrl(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`pacu: ${what} "${value}" is not a URL (expected e.g. http://127.0.0.1:4010/v3)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`pacu: ${what} "${value}" must be an http or https URL`);
  }
  return url.toString().replace(/\/+$/, '');
}

function parseScopes(value: string): Scope[] {
  const scopes = value
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
  const unknown = scopes.filter((scope) => !KNOWN_SCOPES.includes(scope));
  if (unknown.length > 0)
    throw new ConfigError(`pacu: unknown scope ${unknown.join(', ')} (known: ${SCOPES.join(', ')})`);
  return scopes as Scope[];
}

/**
 * Merge flags, a config file and the environment (`PACU_TARGET`, `PACU_CLIENT_ID`,
 * `PACU_CLIENT_SECRET`) into one target configuration. Flags win over the file, the file over the
 * environment.
 */
export function resolveTargetConfig(
  flags: TargetConfigInput,
  file: TargetConfigInput = {},
  env: Readonly<Record<string, string | undefined>> = {},
): TargetConfig {
  const pick = <K extends keyof TargetConfigInput>(key: K): string | undefined => flags[key] ?? file[key];
  const target = pick('target') ?? env.PACU_TARGET;
  if (!target)
    throw new ConfigError('pacu: no target: pass --target URL (the base URL with /v3) or set PACU_TARGET');
  const clientId = pick('clientId') ?? env.PACU_CLIENT_ID;
  const clientSecret = pick('clientSecret') ?? env.PACU_CLIENT_SECRET;
  const scopes = pick('scopes');
  const controlUrl = pick('controlUrl');
  const webhookSecret = pick('webhookSecret');
  const webhookReceiverUrl = pick('webhookReceiverUrl');
  const secretProblem = webhookSecret === undefined ? undefined : webhookSecretProblem(webhookSecret);
  if (secretProblem) throw new ConfigError(`pacu: the webhook secret ${secretProblem}`);
  const ids: TargetIds = Object.fromEntries(
    TARGET_ID_KEYS.map((key) => [key, pick(key)] as const).filter(([, value]) => value !== undefined),
  );
  return {
    baseUrl: parseUrl(target, 'target'),
    ...(clientId !== undefined ? { clientId } : {}),
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    scopes: scopes !== undefined ? parseScopes(scopes) : DEFAULT_SCOPES,
    ids,
    ...(controlUrl !== undefined ? { controlUrl: parseUrl(controlUrl, 'control URL') } : {}),
    ...(webhookSecret !== undefined
      ? {
          webhook: {
            secret: webhookSecret,
            ...(webhookReceiverUrl !== undefined
              ? { receiverUrl: parseUrl(webhookReceiverUrl, 'webhook receiver URL') }
              : {}),
          },
        }
      : {}),
  };
}
