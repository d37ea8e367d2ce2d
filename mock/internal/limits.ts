// The transport limits, in one place for the core and the socket; the decided ones come from spec/.
import { DECIDED_LIMITS } from '../../spec/index.ts';

/** /v3 request bodies: over this, 413 (spec: x-pacu-limits). */
export const BODY_LIMIT_BYTES = DECIDED_LIMITS.maxBodyBytes;
/** The control API takes whole state dumps, so it gets a larger body limit than /v3. */
export const CONTROL_BODY_LIMIT_BYTES = 256 * 1024 * 1024;
export const MAX_JSON_DEPTH = DECIDED_LIMITS.maxJsonDepth;
