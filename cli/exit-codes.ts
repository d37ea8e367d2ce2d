/** pacu's exit codes: 0 all checked rules passed, 1 a rule failed, 2 usage, config or reachability error. */
export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;
