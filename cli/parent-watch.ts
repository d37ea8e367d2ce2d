/** How often a pacu that npm started checks that its parent is still there. */
export const PARENT_CHECK_MS = 250;

/** Whether npm started this process: `npx pacu-kit …`, `npm exec`, or an npm script. */
export function startedByNpm(env: NodeJS.ProcessEnv): boolean {
  return env.npm_lifecycle_event !== undefined;
}

/**
 * Call `onGone` once this process's parent has gone (it was re-parented), checking every
 * `everyMs` without keeping the process alive. npm starts pacu through `sh -c` and passes SIGINT
 * and SIGTERM to that shell only; Debian's and Ubuntu's /bin/sh (dash) dies of a SIGTERM without
 * passing it on, so pacu learns that npm was told to stop only from its parent's death.
 * Returns a function that stops watching.
 */
export function onParentGone(onGone: () => void, everyMs: number = PARENT_CHECK_MS): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
