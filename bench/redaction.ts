// `--only redaction`: a transfer's body redacted with 0 to 1,000 learned secrets (a suite that asks
// for a token a test), each as a ratio to none; then pacu proxy, judging and recording, answering
// POSTs with one token and POSTs with a token each. `--baseline` measures an earlier build beside it.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Credentials, postTransfers } from './instructions.ts';
import { EXAMPLE_TRANSFER, mockToken } from './load-requests.ts';
import { startCannedUpstream } from './proxy.ts';
import { SERVER_CPU, startScript } from './targets.ts';

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

/** POSTs a second through `origin`: `count` transfers, each with `tokenOf(n)` when given, else the mock's. */
async function postsASecond(
  origin: string,
  count: number,
  credentials: Credentials,
  tokenOf?: (n: number) => string,
): Promise<number> {
  const started = performance.now();
  await postTransfers(origin, count, credentials, tokenOf);
  return Math.round((count * 1000) / (performance.now() - started));
}

/**
 * pacu proxy (on its own core, as in the proxy bench) answering POSTs with one token, then POSTs
 * each with a token of its own: the second learns a secret an exchange. The sender runs in this
 * process, so a fast proxy's rate may be the sender's: the ratio tells a slow one.
 */
async function throughProxy(builds: readonly [string, string][]): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-bench-redaction-'));
  const { mock, upstream } = await startCannedUpstream();
  try {
    const credentials = { token: await mockToken(mock), accountId: mock.info.merchantAccountId as string };
    const tokenEach = (n: number): string => `tok-${n}-${'x'.repeat(24)}`;
    for (const [name, root] of builds) {
      const har = (label: string) => path.join(dir, `${name}-${label}.har`);
      const rates: number[] = [];
      for (const label of ['one token', 'a token each']) {
        const proxy = await startScript(
          `${name} proxy`,
          'bench/servers/proxy-server.mjs',
          [upstream.info.url as string, har(label)],
          SERVER_CPU,
          root,
        );
        try {
          // The first through the proxy carries the mock's token: the canned upstream keeps its answer.
          await postsASecond(proxy.origin, 1, credentials);
          rates.push(
            await postsASecond(
              proxy.origin,
              5000,
              credentials,
              label === 'one token' ? undefined : tokenEach,
            ),
          );
        } finally {
          await proxy.stop();
        }
      }
      const [one = 0, each = 0] = rates;
      console.log(
        `  ${name.padEnd(9)} pacu proxy: ${one} POSTs a second with one token, ${each} with a token each (${(each / Math.max(1, one)).toFixed(2)} of it)`,
      );
    }
  } finally {
    await upstream.stop();
    await mock.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function redactionRuns(baseline?: string): Promise<void> {
  const builds: [string, MakeRedactor][] = [['pacu', await redactorOf(process.cwd())]];
  if (baseline) builds.push(['baseline', await redactorOf(baseline)]);
  console.log(
    `redaction: a ${JSON.stringify(EXAMPLE_TRANSFER).length}-character transfer body, redacted as a recording redacts it`,
  );
  const figures: Record<string, Record<number, number>> = {};
  for (const [name, make] of builds) {
    const times = Object.fromEntries(KNOWN.map((known) => [known, timeOne(make, known)])) as Record<
      number,
      number
    >;
    figures[name] = times;
    const none = times[0] as number;
    const shown = KNOWN.map((known) => {
      const time = times[known] as number;
      return `${known} learned: ${time.toFixed(2)} us (${(time / none).toFixed(1)}x)`;
    });
    console.log(`  ${name.padEnd(9)} ${shown.join(', ')}`);
  }
  console.log(JSON.stringify({ redaction: figures }));
  console.log(`through pacu proxy (on core ${SERVER_CPU}), 5,000 POSTs from this process, 32 at a time:`);
  await throughProxy(
    baseline
      ? [
          ['pacu', process.cwd()],
          ['baseline', baseline],
        ]
      : [['pacu', process.cwd()]],
  );
}
