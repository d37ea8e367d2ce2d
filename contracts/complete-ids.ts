import { loadSpec } from '../spec/index.ts';
import {
  createApiClient,
  resolveIds,
  type TargetConfig,
  type TargetIds,
  type Wording,
} from '../suites/index.ts';
import type { PactInteraction } from './pact-file.ts';
import { PROVIDER_STATES } from './provider-state-names.ts';

/** Ids the target could not give, each with the true reason (naming the setting to give, in `word`'s words). */
export type MissingIds = Readonly<Partial<Record<keyof TargetIds, string>>>;

/**
 * The target config with the user and account ids `pacu check` would use: found on the target by
 * the same code (`resolveIds`: a user from `/users`, an account created for it), so `verify` needs
 * `--user-id`/`--account-id` no more than `check` does. Only when a state of the pacts needs one, the
 * target has no control API, and the user gave client credentials.
 */
export async function completeIds(
  target: TargetConfig,
  interactions: readonly PactInteraction[],
  timeoutMs: number,
  word: Wording,
): Promise<{ readonly target: TargetConfig; readonly missing: MissingIds }> {
  const states = new Set(interactions.flatMap((item) => item.providerStates.map((state) => state.name)));
  const wants =
    (states.has(PROVIDER_STATES.userExists) && target.ids.userId === undefined) ||
    ((states.has(PROVIDER_STATES.accountExists) || states.has(PROVIDER_STATES.transferWithReferenceExists)) &&
      target.ids.accountId === undefined);
  if (!wants || target.controlUrl || !target.clientId || !target.clientSecret) return { target, missing: {} };
  const api = createApiClient({ baseUrl: target.baseUrl, timeoutMs });
  try {
    const response = await api.getAccessToken({
      clientId: target.clientId,
      clientSecret: target.clientSecret,
      scope: target.scopes.join(','),
    });
    const token = (response.json as { data?: { access_token?: unknown } } | undefined)?.data?.access_token;
    // Without a token the `a valid client` state fails on its own, with the target's answer.
    if (typeof token !== 'string') return { target, missing: {} };
    const {
      discovered: _found,
      missing,
      ...ids
    } = await resolveIds(await loadSpec(), api, token, target.ids, word);
    return { target: { ...target, ids }, missing };
  } finally {
    await api.close();
  }
}
