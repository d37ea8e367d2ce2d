// Set up before every test file of the repository. They share one module graph per worker
// (decisions 156, 158), so nothing a file starts may outlive it: what a helper's `closers` holds is
// closed after each test, and a file that leaves a server, a socket, a child process or a timer
// running fails here, naming what it left.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { closers } from './check-run.ts';

/** What keeps a process alive and would carry one file's work into the next one's time. */
const WATCHED = new Set(['TCPServerWrap', 'TCPSocketWrap', 'ProcessWrap', 'PipeWrap', 'Timeout']);
/** How long a file's closed servers and killed children get to be gone. */
const SETTLE_MS = 3_000;

const watched = (): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo())
    if (WATCHED.has(kind)) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
};

/** The kinds there are more of now than in `before`, with how many more. */
const leftOver = (before: Map<string, number>): string[] =>
  [...watched()]
    .filter(([kind, count]) => count > (before.get(kind) ?? 0))
    .map(([kind, count]) => `${count - (before.get(kind) ?? 0)} ${kind}`);

let before = new Map<string, number>();
beforeAll(() => {
  before = watched();
});

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

// Registered first, so it runs after the file's own afterAll hooks (vitest runs them as a stack).
afterAll(async () => {
  const deadline = Date.now() + SETTLE_MS;
  let left = leftOver(before);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    left = leftOver(before);
  }
  if (left.length > 0)
    throw new Error(`this file left ${left.join(', ')} running: close what it starts in its own hooks`);
});
