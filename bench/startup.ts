// Startup of whole processes, as a user meets it: `pacu --help` until exit, `pacu mock` until its
// first line (it prints that line once it listens), beside `node -e 0` and `prism mock` on the same
// spec. Rounds interleave the commands, so a busy moment slows all of them alike.
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
      if (!subject.ready && code === 0) finish();
      else if (!done) reject(new Error(`${subject.name} exited with ${code} before it was ready`));
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export interface StartupFigures {
  readonly rounds: number;
  /** Median milliseconds per subject. */
  readonly medianMs: Record<string, number>;
}

/** Run every subject `rounds` times, interleaved, and print medians and ratios. */
export async function measureStartup(specFile: string, rounds = 10): Promise<StartupFigures> {
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
  for (let round = 0; round < rounds; round++) {
    for (const subject of subjects) samples.get(subject.name)?.push(await timeOnce(subject));
  }
  const medianMs = Object.fromEntries(
    [...samples].map(([name, values]) => [name, Math.round(median(values))]),
  );
  const node = medianMs['node -e 0'] ?? 1;
  const prism = medianMs['prism mock ready'] ?? 1;
  console.log(`startup: median of ${rounds} interleaved rounds, whole processes (${PACU})`);
  for (const [name, ms] of Object.entries(medianMs)) {
    const ratios = [`${(ms / node).toFixed(1)}× node -e 0`];
    if (name.includes('mock')) ratios.push(`${(ms / prism).toFixed(2)}× prism mock`);
    console.log(`  ${name.padEnd(18)} ${String(ms).padStart(6)} ms   ${ratios.join('   ')}`);
  }
  return { rounds, medianMs };
}
