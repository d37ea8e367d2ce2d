import type { RoutedExchange } from '../../../http/index.ts';
import type { Spec } from '../../../spec/index.ts';
import type { Behaviour } from '../behaviour.ts';
import { servedPath } from '../learned-limits.ts';
import type { ReportDraft } from './learned-report.ts';
import { entryOf } from './samples.ts';

/** Agreeing answers needed before a path variant is served (or refused) as the sandbox did. */
const SAMPLES_FOR_A_RULE = 2;

type Variant = 'trailingSlash' | 'anyCase';

const ABOUT: Readonly<Record<Variant, string>> = {
  trailingSlash: 'a path with a trailing slash',
  anyCase: 'a path in another case',
};

/**
 * Whether a sandbox serves a path with a trailing slash, and one in another case, as the path
 * itself: from requests to such paths (no operation's as written, one's once the variant is read
 * as the path), when at least two agree. Left free (pacu's: no operation there) otherwise.
 */
export function learnPathVariants(
  spec: Spec,
  exchanges: readonly RoutedExchange[],
  basePath: string,
  report: ReportDraft,
): Behaviour['paths'] {
  const served = { trailingSlash: false, anyCase: false };
  const only = (variant: Variant) =>
    ({
      basePath,
      paths: { trailingSlash: variant === 'trailingSlash', anyCase: variant === 'anyCase' },
    }) as Behaviour;
  for (const variant of ['trailingSlash', 'anyCase'] as const) {
    const seen = exchanges.flatMap((exchange) => {
      if (exchange.operation) return [];
      const path = new URL(exchange.entry.request.url).pathname;
      const read = servedPath(only(variant), spec, path);
      if (read === path || (variant === 'anyCase' && path.endsWith('/'))) return [];
      const status = exchange.entry.response.status;
      return status < 500 ? [{ taken: status === 200, entry: entryOf(exchange) }] : [];
    });
    const entries = seen.map(({ entry }) => entry);
    const taken = seen.filter(({ taken }) => taken).length;
    if (seen.length >= SAMPLES_FOR_A_RULE && (taken === 0 || taken === seen.length)) {
      served[variant] = taken > 0;
      report.learned(
        `paths.${variant}`,
        ABOUT[variant],
        taken > 0,
        taken > 0 ? 'served as the path' : 'no operation there',
        entries,
      );
    } else
      report.kept(
        `paths.${variant}`,
        ABOUT[variant],
        false,
        seen.length === 0
          ? 'no operation there (never tried)'
          : `left free, no operation there: ${taken} of ${seen.length} served`,
        entries,
      );
  }
  return served;
}
