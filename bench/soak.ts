// Bounded state (decision 164): the mock's memory under a steady stream of new transfers, with
// retention and without, side by side in one run. Retention is cut to 10 s so a short run shows
// what a 10-minute soak at the default (15 minutes, 10,000 kept) shows. `npx tsx bench/soak.ts`;
// `--seconds 600 --retain 60000 --only retained` is the 10-minute soak of decision 164.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { mockToken, requests } from './load-requests.ts';
import { LOAD_CPU, startScript } from './targets.ts';
import { measure, requireWrk } from './wrk.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    // Mock time (ms) the retained run keeps; its floor stays the default 10,000 records.
    retain: { type: 'string', default: '10000' },
    // `retained`: only the run with retention (a 10-minute soak need not be made twice).
    only: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const RUNS = [
  ['retain none', 'keep-all'],
  [`retain ${Number(values.retain) / 1000}s, 10,000 kept`, `retain=${Number(values.retain)}`],
] as const;
const SAMPLE_SECONDS = 5;

const rssMiB = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
  return Math.round(Number(line?.[1] ?? 0) / 1024);
};

requireWrk();
for (const [name, retain] of values.only === 'retained' ? RUNS.slice(1) : RUNS) {
  const target = await startScript(`pacu mock, ${name}`, 'bench/servers/mock-server.mjs', ['', retain]);
  const token = await mockToken(target);
  const post = requests(token, target.info.merchantAccountId as string)['POST /payments/usd/direct'];
  const samples: number[] = [];
  // Transfers a second in each sample: with retention, what is kept is this rate times the retention.
  const rates: number[] = [];
  let made = 0;
  for (let elapsed = 0; elapsed < SECONDS; elapsed += SAMPLE_SECONDS) {
    const result = await measure(target, post, 16, SAMPLE_SECONDS, LOAD_CPU);
    made += result.total;
    rates.push(result.requestsPerSecond);
    samples.push(rssMiB(target.pid as number));
  }
  const { settledRssBytes } = await target.stop();
  const settled = settledRssBytes
    ? `; ${Math.round(settledRssBytes / 2 ** 20)} MiB after a full collection`
    : '';
  console.log(
    `${name.padEnd(24)} ${made} transfers in ${SECONDS} s; RSS every ${SAMPLE_SECONDS} s (MiB): ${samples.join(' ')}${settled}\n${''.padEnd(24)} transfers a second in each: ${rates.join(' ')}`,
  );
}
