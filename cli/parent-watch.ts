/** How often a pacu that npm started checks that its parent is still there. */
export const PARENT_CHECK_MS = 250;

/** Whether npm started this process: `npx pacu-kit …`, `npm exec`, or an npm script. */
export function startedByNpm(env: NodeJS.ProcessEnv): boolean {
  return env.npm_lifecycle_event !== undefined;
}

/**
 * Call `onGone` once this process's parent has gone, checking every `everyMs` without keeping the
 * process alive; returns a function that stops watching. Under npm, dash dies of a SIGTERM without
 * passing it on, so the parent's death is all pacu learns of it (decision 120).
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
