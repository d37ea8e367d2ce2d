// Startup of whole processes, as a user meets it: `pacu --help` until exit, `pacu mock` until its
// first line (it prints that line once it listens), beside `node -e 0` and `prism mock` on the same
// spec; then `pacu check`'s full default run against its embedded mock, start to exit. Rounds
// interleave the commands, so a busy moment slows all of them alike; ratios are to `node -e 0`.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const ROOT = new URL('..', import.meta.url).pathname;
const PACU = `${ROOT}dist/cli/bin.js`;

interface Subject {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Undefined: time until exit; otherwise until a stdout line matches, then the process is stopped. */
  readonly ready?: RegExp;
  /** Exit codes that count as a finished run (default 0): a check's verdict may be 1. */
  readonly exitCodes?: readonly number[];
}

function timeOnce(subject: Subject): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(subject.command, subject.args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
    const lines = createInterface({ input: child.stdout });
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      resolve(performance.now() - started);
    };
    if (subject.ready) {
      const ready = subject.ready;
      lines.on('line', (line) => {
        if (!ready.test(line)) return;
        finish();
        child.kill('SIGTERM');
      });
    }
    child.once('error', reject);
    child.once('exit', (code) => {
      if (!subject.ready && (subject.exitCodes ?? [0]).includes(code ?? -1)) finish();
      else if (!done) reject(new Error(`${subject.name} exited with ${code} before it was ready`));
    });
  });
}

/** A share to two decimals, as the benches print them. */
export const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export interface StartupFigures {
  readonly rounds: number;
  /** Median milliseconds per subject. */
  readonly medianMs: Record<string, number>;
  /** Median per subject over `node -e 0` of the same round. */
  readonly ratioToNode: Record<string, number>;
}

/** A start-up figure: a ratio to `node -e 0`, or (`ms`) a whole run's time. */
const GOALS: Record<string, { ratio?: number; ms?: number }> = {
  'pacu --help': { ratio: 1.5 },
  'pacu mock ready': { ratio: 3 },
  'pacu check': { ms: 5000 },
};

/** Run every subject `rounds` times, interleaved, and print medians and ratios. */
export async function measureStartup(
  specFile: string,
  rounds = 10,
  checkRounds = 3,
): Promise<StartupFigures> {
  const subjects: Subject[] = [
    { name: 'node -e 0', command: process.execPath, args: ['-e', '0'] },
    { name: 'pacu --help', command: process.execPath, args: [PACU, '--help'] },
    { name: 'pacu mock ready', command: process.execPath, args: [PACU, 'mock', '--json'], ready: /^\{/ },
    {
      name: 'prism mock ready',
      command: `${ROOT}node_modules/.bin/prism`,
      args: ['mock', '-h', '127.0.0.1', '-p', '0', specFile],
      ready: /Prism is listening/,
    },
  ];
  const samples = new Map<string, number[]>(subjects.map((subject) => [subject.name, []]));
  const ratios = new Map<string, number[]>(subjects.map((subject) => [subject.name, []]));
  for (let round = 0; round < rounds; round++) {
    let node = 1;
    for (const subject of subjects) {
      const ms = await timeOnce(subject);
      if (subject.name === 'node -e 0') node = ms;
      samples.get(subject.name)?.push(ms);
      ratios.get(subject.name)?.push(ms / node);
    }
  }
  // A whole check run takes seconds: a few rounds, each beside its own `node -e 0`.
  const check: Subject = {
    name: 'pacu check',
    command: process.execPath,
    args: [PACU, 'check'],
    exitCodes: [0, 1],
  };
  samples.set(check.name, []);
  ratios.set(check.name, []);
  for (let round = 0; round < checkRounds; round++) {
    const node = await timeOnce(subjects[0] as Subject);
    const ms = await timeOnce(check);
    samples.get(check.name)?.push(ms);
    ratios.get(check.name)?.push(ms / node);
  }
  const medianMs = Object.fromEntries(
    [...samples].map(([name, values]) => [name, Math.round(median(values))]),
  );
  const ratioToNode = Object.fromEntries(
    [...ratios].map(([name, values]) => [name, Math.round(median(values) * 100) / 100]),
  );
  const prism = medianMs['prism mock ready'] ?? 1;
  console.log(
    `startup: medians of ${rounds} interleaved rounds (pacu check: ${checkRounds}), whole processes (${PACU})`,
  );
  for (const [name, ms] of Object.entries(medianMs)) {
    const shown = [`${(ratioToNode[name] ?? 0).toFixed(2)}× node -e 0`];
    if (name.includes('mock')) shown.push(`${(ms / prism).toFixed(2)}× prism mock`);
    const goal = GOALS[name];
    if (goal?.ratio)
      shown.push(`goal ≤ ${goal.ratio}×: ${(ratioToNode[name] ?? 0) <= goal.ratio ? 'met' : 'NOT met'}`);
    if (goal?.ms) shown.push(`goal ≤ ${goal.ms / 1000} s: ${ms <= goal.ms ? 'met' : 'NOT met'}`);
    console.log(`  ${name.padEnd(18)} ${String(ms).padStart(6)} ms   ${shown.join('   ')}`);
  }
  return { rounds, medianMs, ratioToNode };
}
