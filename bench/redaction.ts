// How a body's redaction scales with what the redactor knows (`--only redaction`): a transfer's body
// redacted as a recording redacts it, with 0 to 1,000 learned secrets (tokens issued to a test suite
// that asks for one a test), in one process, each as a ratio to the time with none. `--baseline`
// measures an earlier build's redactor beside it.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EXAMPLE_TRANSFER } from './load-requests.ts';

type MakeRedactor = (secrets?: object) => {
  observe(answer: { json?: unknown }): void;
  redactText(text: string): string;
};

const KNOWN = [0, 10, 100, 1000];
const TEXTS = 1000;
const REPEATS = 200;

async function redactorOf(root: string): Promise<MakeRedactor> {
  const url = pathToFileURL(path.join(root, 'dist/http/redaction.js')).href;
  return ((await import(url)) as { createRedactor: MakeRedactor }).createRedactor;
}

/** Microseconds a body's redaction takes with `known` secrets learned, the median of five runs. */
function timeOne(createRedactor: MakeRedactor, known: number): number {
  const redactor = createRedactor({ clientId: 'bench', clientSecret: 'bench-client-secret' });
  for (let n = 0; n < known; n++)
    redactor.observe({ json: { data: { access_token: randomBytes(24).toString('base64url') } } });
  const body = JSON.stringify(EXAMPLE_TRANSFER);
  const texts = Array.from({ length: TEXTS }, (_, n) => body.replace('Invoice', `Invoice ${n}`));
  let sink = 0;
  const runs: number[] = [];
  for (let run = 0; run < 6; run++) {
    const started = performance.now();
    for (let repeat = 0; repeat < REPEATS / 5; repeat++)
      for (const text of texts) sink += redactor.redactText(text).length;
    if (run > 0) runs.push(((performance.now() - started) * 1000) / ((REPEATS / 5) * TEXTS));
  }
  if (sink === 0) throw new Error('nothing was redacted');
  return runs.sort((a, b) => a - b)[2] as number;
}

export async function redactionRuns(baseline?: string): Promise<void> {
  const builds: [string, MakeRedactor][] = [['pacu', await redactorOf(process.cwd())]];
  if (baseline) builds.push(['baseline', await redactorOf(baseline)]);
  console.log(
    `redaction: a ${JSON.stringify(EXAMPLE_TRANSFER).length}-character transfer body, redacted as a recording redacts it`,
  );
  const figures: Record<string, Record<number, number>> = {};
  for (const [name, make] of builds) {
    figures[name] = {};
    for (const known of KNOWN) (figures[name] as Record<number, number>)[known] = timeOne(make, known);
    const none = (figures[name] as Record<number, number>)[0] as number;
    console.log(
      `  ${name.padEnd(9)} ${KNOWN.map((known) => `${known} learned: ${((figures[name] as Record<number, number>)[known] as number).toFixed(2)} us (${(((figures[name] as Record<number, number>)[known] as number) / none).toFixed(1)}x)`).join(', ')}`,
    );
  }
  console.log(JSON.stringify({ redaction: figures }));
}
