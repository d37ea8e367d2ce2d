import { ConfigError, type OperationId } from '../spec/index.ts';

/** What a failure id names: a rule on one operation, and for properties the fast-check seed and path. */
export interface FailureKey {
  readonly ruleId: string;
  readonly operation: OperationId;
  readonly seed?: number;
  readonly path?: string;
}

/** `<rule>/<operation>[/<seed>/<path>]`, e.g. `errors.unknown-id/getVirtualCard/42/3:0`. */
export function formatFailureId(key: FailureKey): string {
  const base = `${key.ruleId}/${key.operation}`;
  return key.seed !== undefined && key.path !== undefined ? `${base}/${key.seed}/${key.path}` : base;
}

export function parseFailureId(id: string): FailureKey {
  const [ruleId, operation, seed, path, ...rest] = id.split('/');
  const seedNumber = seed === undefined ? undefined : Number(seed);
  if (
    !ruleId ||
    !operation ||
    rest.length > 0 ||
    (seed !== undefined && (path === undefined || !Number.isInteger(seedNumber)))
  ) {
    throw new ConfigError(
      `pacu: "${id}" is not a failure id (expected <rule>/<operation>[/<seed>/<path>], as the report prints)`,
    );
  }
  return {
    ruleId,
    operation: operation as OperationId,
    ...(seedNumber !== undefined && path !== undefined ? { seed: seedNumber, path } : {}),
  };
}
