// The transport limits (spec: x-pacu-decisions/limits), in one place for the core and the socket.

/** /v3 request bodies: over this, 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** The control API takes whole state dumps, so it gets a larger body limit than /v3. */
export const CONTROL_BODY_LIMIT_BYTES = 256 * 1024 * 1024;
export const MAX_JSON_DEPTH = 32;
/** More header lines than this: 431 (node would otherwise drop the rest silently). */
export const MAX_HEADER_LINES = 200;
