import { createRedactor, type Redactor } from '../../http/index.ts';
import type { TargetConfig } from './target-config.ts';

/**
 * The redactor of a run against `target`: its client id and secret, the values of the headers it
 * sends with every request, its own credential names, and `others` (a webhook secret, a broker token).
 */
export function targetRedactor(target: TargetConfig, others: readonly string[] = []): Redactor {
  return createRedactor({
    ...(target.clientId !== undefined ? { clientId: target.clientId } : {}),
    ...(target.clientSecret !== undefined ? { clientSecret: target.clientSecret } : {}),
    others: [...others, ...Object.values(target.headers ?? {})],
    headers: target.redactHeaders ?? [],
    fields: target.redactFields ?? [],
  });
}
