/**
 * pacu's exit codes: 0 all checked rules passed, 1 a rule failed, 2 usage, config or reachability
 * error, 3 a replayed failure (`pacu check --replay`) did not reproduce: flaky, not fixed.
 */
export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;
export const EXIT_NOT_REPRODUCED = 3;
