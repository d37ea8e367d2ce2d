import { ConfigError } from '../../spec/index.ts';

/**
 * What a failure id names: a rule on one operation, the fast-check seed (of a property, or of a fixed
 * scenario seeded by the run) and a property's path. `receivedBy` is set when the rule judged an
 * answer another rule's case received (envelope.error-shape): the seed and path are that case's.
 */
export interface FailureKey {
  readonly ruleId: string;
  /** The operation's id in the spec. */
  readonly operation: string;
  readonly seed?: number;
  readonly path?: string;
  /** The rule whose case received the judged answer; its replay reruns that case. */
  readonly receivedBy?: string;
}

/**
 * `<rule>[@<receiving rule>]/<operation>[/<seed>[/<path>]]`, e.g. `errors.unknown-id/getVirtualCard/42/3:0`
 * or `envelope.error-shape@errors.limits/usdTransfer/42/5`.
 */
export function formatFailureId(key: FailureKey): string {
  const rule = key.receivedBy ? `${key.ruleId}@${key.receivedBy}` : key.ruleId;
  const seed = key.seed === undefined ? '' : `/${key.seed}${key.path === undefined ? '' : `/${key.path}`}`;
  return `${rule}/${key.operation}${seed}`;
}

export function parseFailureId(id: string): FailureKey {
  const [rule, operation, seed, path, ...rest] = id.split('/');
  const [ruleId, receivedBy, ...more] = (rule ?? '').split('@');
  const seedNumber = seed === undefined ? undefined : Number(seed);
  if (
    !ruleId ||
    !operation ||
    receivedBy === '' ||
    more.length > 0 ||
    rest.length > 0 ||
    path === '' ||
    (seed !== undefined && !/^\d+$/.test(seed))
  ) {
    throw new ConfigError(
      `pacu: "${id}" is not a failure id (expected <rule>[@<rule>]/<operation>[/<seed>[/<path>]], as the report prints)`,
    );
  }
  return {
    ruleId,
    operation,
    ...(seedNumber !== undefined ? { seed: seedNumber } : {}),
    ...(path !== undefined ? { path } : {}),
    ...(receivedBy !== undefined ? { receivedBy } : {}),
  };
}
