import type { Profile } from '../spec/index.ts';
import type { ApiResponse } from './api-request.ts';

/**
 * Why a refusal has the wrong status, or undefined. `documented` asks for a 4xx (the description
 * documents 400 only, so 401, 404 or 415 are legal choices); `strict` asks for the status pacu decided.
 */
export function refusalProblem(
  response: ApiResponse,
  profile: Profile,
  decided: number | readonly number[],
  documented: readonly number[] | 'any-4xx' = 'any-4xx',
): string | undefined {
  const { status } = response;
  if (status >= 200 && status < 300) return `the target accepted it with HTTP ${status}`;
  if (status >= 500) return `the target answered HTTP ${status} (a server error, never a refusal)`;
  const wanted = profile === 'strict' ? [decided].flat() : documented;
  if (wanted === 'any-4xx') {
    return status >= 400 && status < 500 ? undefined : `HTTP ${status}, expected a 4xx refusal`;
  }
  return wanted.includes(status) ? undefined : `HTTP ${status}, expected ${wanted.join(' or ')}`;
}
