/**
 * pacu's one error hierarchy, for usage errors only (bad flags, unreadable files, unreachable
 * targets). What pacu finds out about a target is never thrown: it is data in a report.
 * Codes are stable, like undici's `UND_ERR_*`, so callers can branch on them.
 */
export type PacuErrorCode =
  | 'PACU_ERR_SPEC'
  | 'PACU_ERR_CONFIG'
  | 'PACU_ERR_USAGE'
  | 'PACU_ERR_TARGET_UNREACHABLE'
  | 'PACU_ERR_INCONCLUSIVE'
  | 'PACU_ERR_STATE_FILE'
  | 'PACU_ERR_SCENARIO';

export class PacuError extends Error {
  readonly code: PacuErrorCode;

  constructor(code: PacuErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PacuError';
    this.code = code;
  }
}

/** The spec file is missing, unparsable or not the document pacu expects. */
export class SpecError extends PacuError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('PACU_ERR_SPEC', message, options);
    this.name = 'SpecError';
  }
}

/** A flag, config file, scenario or state file says something pacu cannot use. */
export class ConfigError extends PacuError {
  constructor(
    message: string,
    options?: {
      cause?: unknown;
      code?: 'PACU_ERR_CONFIG' | 'PACU_ERR_USAGE' | 'PACU_ERR_STATE_FILE' | 'PACU_ERR_SCENARIO';
    },
  ) {
    super(options?.code ?? 'PACU_ERR_CONFIG', message, options);
    this.name = 'ConfigError';
  }
}

/** The target did not answer at all (refused, reset, DNS, timeout before any response). */
export class TargetUnreachableError extends PacuError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('PACU_ERR_TARGET_UNREACHABLE', message, options);
    this.name = 'TargetUnreachableError';
  }
}
