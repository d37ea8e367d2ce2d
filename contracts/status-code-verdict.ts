import { type MatcherVerdict, no, ok } from './matcher-verdicts.ts';
import type { PactMatcher } from './pact-file.ts';

/** The statuses of Pact's `statusCode` classes. */
const STATUS_CLASSES: Record<string, (status: number) => boolean> = {
  information: (status) => status >= 100 && status < 200,
  success: (status) => status >= 200 && status < 300,
  redirect: (status) => status >= 300 && status < 400,
  clientError: (status) => status >= 400 && status < 500,
  serverError: (status) => status >= 500 && status < 600,
  nonError: (status) => status < 400,
  error: (status) => status >= 400,
};

/**
 * A `statusCode` matcher on the response status: every status the spec lists in the class of the
 * pact's own status (its successes for a 200) must be one the matcher accepts.
 */
export function statusCodeVerdict(
  matcher: PactMatcher,
  pactStatus: number,
  specStatuses: readonly number[],
): MatcherVerdict {
  const wanted = matcher.status;
  const accepts = (status: number): boolean =>
    Array.isArray(wanted)
      ? wanted.map(Number).includes(status)
      : (STATUS_CLASSES[String(wanted)]?.(status) ?? false);
  const sameClass = specStatuses.filter(
    (status) => Math.floor(status / 100) === Math.floor(pactStatus / 100),
  );
  const rejected = sameClass.find((status) => !accepts(status));
  return rejected === undefined
    ? ok(
        `every ${Math.floor(pactStatus / 100)}xx status the spec lists (${sameClass.join(', ')}) is one the statusCode matcher accepts`,
      )
    : no(
        `the spec answers ${rejected} here; the statusCode matcher wants ${JSON.stringify(wanted)}`,
        rejected,
      );
}
