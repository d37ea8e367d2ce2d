import { mkdtempSync } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApiClient, type ApiResponse, createApiClient } from '../../suites/index.ts';
import {
  type ConsumerPact,
  createConsumerPact,
  match,
  type ProviderStateRef,
  TIMESTAMP_PATTERN,
} from '../pact-consumer-adapter.ts';
import { PACU_PROVIDER } from '../pacu-pacts.ts';
import { PROVIDER_STATES } from '../provider-state-names.ts';

/**
 * pacu's own consumers (one pact file each, `<consumer>-pacu-api.json`). `decisions` holds what only
 * pacu's spec decides; its pact goes to `pacts/strict/`, verified under `--profile strict` alone.
 */
export const PACU_CONSUMERS = {
  auth: 'pacu-merchant-auth',
  payments: 'pacu-merchant-payments',
  cards: 'pacu-merchant-cards',
  onboarding: 'pacu-merchant-onboarding',
  decisions: 'pacu-merchant-decisions',
} as const;

export interface PacuConsumerPact extends ConsumerPact {
  /** Move the written pact file into place in one rename, so no reader ever sees half a file. */
  save(): Promise<void>;
}

/**
 * The consumer pact of one of pacu's consumer test files. Pact writes into a private folder; `save()`
 * (in `afterAll`) moves the file under `$PACU_PACT_DIR` (`strict/` for the decisions) when that is
 * set: `npm run pacts` sets it to `contracts/pacts/`. A plain test run never touches the committed
 * pacts, so a failing or interrupted run cannot leave a pact with an interaction missing.
 */
export function pacuConsumerPact(
  consumer: (typeof PACU_CONSUMERS)[keyof typeof PACU_CONSUMERS],
): PacuConsumerPact {
  const work = mkdtempSync(join(tmpdir(), 'pacu-pact-'));
  const pact = createConsumerPact({ consumer, provider: PACU_PROVIDER, dir: work });
  return {
    interaction: (definition, test) => pact.interaction(definition, test),
    async save() {
      const base = process.env.PACU_PACT_DIR;
      if (base) {
        const target = join(base, consumer === PACU_CONSUMERS.decisions ? 'strict' : '');
        const name = `${consumer}-${PACU_PROVIDER}.json`;
        await mkdir(target, { recursive: true });
        // Copy beside the target first: a rename is atomic only within one file system.
        await copyFile(join(work, name), join(target, `.${name}.tmp`));
        await rename(join(target, `.${name}.tmp`), join(target, name));
      }
      await rm(work, { recursive: true, force: true });
    },
  };
}

/** The formats of the spec, as Pact regexes. */
export const PATTERNS = {
  /** ISO 8601 in UTC: `Z` or a zero offset, with or without seconds and their fraction. */
  timestamp: TIMESTAMP_PATTERN,
  email: '^[^@\\s]+@[^@\\s]+$',
  /** The USD transfer's states; the description lists no values for other records' statuses. */
  transactionStatus: '^(processing|successful|failed)$',
  accountType: '^(CHECKING|SAVINGS|BUSINESS)$',
  transferType: '^(ACH|WIRE)$',
  digits: (count: number): string => `^[0-9]{${count}}$`,
} as const;

/** `${name}` in a provider-state expression: the value the state handler returned under `name`. */
export function stateRef(name: string): string {
  return ['${', name, '}'].join('');
}

/** The example token in pacts; the verifier swaps in a real one, so no secret is ever written. */
const EXAMPLE_TOKEN = 'example-access-token';

/** `Authorization: Bearer …`, filled from the `a valid client` state at verification. */
export const bearerHeader: Readonly<Record<string, unknown>> = {
  authorization: match.fromProviderState(`Bearer ${stateRef('accessToken')}`, `Bearer ${EXAMPLE_TOKEN}`),
};

/** The token the consumer side sends: the example that Pact's mock server expects. */
export const exampleToken: string = EXAMPLE_TOKEN;

// Pact's jsonBody adds `Content-Type`; the same spelling here replaces it instead of adding a second header.
export const jsonContentType: Readonly<Record<string, unknown>> = {
  'Content-Type': match.regex('^application/json(;.*)?$', 'application/json'),
};

/** The same `Content-Type` matcher, for responses. */
export const jsonResponseHeaders: Readonly<Record<string, unknown>> = jsonContentType;

/**
 * The success envelope around `data`, as the description promises it: `success` and `data`. It gives
 * `message` a type but not its presence on success, so a consumer of the documented pacts may not rely on it.
 */
export function successEnvelope(data: unknown): unknown {
  return { success: match.boolean(true), data };
}

/** The error envelope: `success` false and a message. */
export function errorEnvelope(message: string): unknown {
  return { success: match.boolean(false), message: match.string(message) };
}

export const timestamp = (example: string): unknown => match.regex(PATTERNS.timestamp, example);

/** Call the API the way a merchant's code would: pacu's client on the base URL Pact gives. */
export async function callApi(
  baseUrl: string,
  call: (api: ApiClient) => Promise<ApiResponse>,
): Promise<ApiResponse> {
  const api = createApiClient({ baseUrl });
  try {
    return await call(api);
  } finally {
    await api.close();
  }
}

/** Every bearer interaction starts from a valid client; other states follow. */
export function withClient(...states: ProviderStateRef[]): ProviderStateRef[] {
  return [{ name: PROVIDER_STATES.validClient }, ...states];
}
