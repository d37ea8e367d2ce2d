import type { Profile } from '../../spec/index.ts';
import type { ApiResponse } from '../target/api-request.ts';

/** Why a refusal is wrong, and the profile of the assertion it broke. */
export interface RefusalProblem {
  readonly reason: string;
  readonly profile: Profile;
}

/**
 * Why a refusal has the wrong status, or undefined. `documented` asks for a 4xx (the description
 * documents 400 only, so 401, 404 or 415 are legal choices) or one of `documented`; `strict` also
 * asks for the status pacu decided (read by the rule from the operation's `responses`). A status the documented view accepts but the decision does not
 * is a `strict` failure, so it is never labelled as the description's.
 */
export function refusalProblem(
  response: ApiResponse,
  profile: Profile,
  decided: number | readonly number[] | undefined,
  documented: readonly number[] | 'any-4xx' = 'any-4xx',
): RefusalProblem | undefined {
  const { status } = response;
  if (status >= 200 && status < 300)
    return { reason: `the target accepted it with HTTP ${status}`, profile: 'documented' };
  if (status >= 500)
    return {
      reason: `the target answered HTTP ${status} (a server error, never a refusal)`,
      profile: 'documented',
    };
  const documentedOk = documented === 'any-4xx' ? status >= 400 && status < 500 : documented.includes(status);
  if (!documentedOk)
    return {
      reason:
        documented === 'any-4xx'
          ? `HTTP ${status}, expected a 4xx refusal`
          : `HTTP ${status}, expected ${documented.join(' or ')}`,
      profile: 'documented',
    };
  // No status decided for the case (the operation's responses list none): nothing more to ask.
  const wanted = decided === undefined ? [] : [decided].flat();
  if (profile === 'strict' && wanted.length > 0 && !wanted.includes(status))
    return { reason: `HTTP ${status}, expected ${wanted.join(' or ')} (pacu's decision)`, profile: 'strict' };
  return undefined;
}
