// Bounded state (decision 164): the mock's memory under a steady stream of new transfers, with
// retention and without, side by side in one run. Retention is cut to 10 s so a short run shows
// what a 10-minute soak at the default (15 minutes, 10,000 kept) shows. `npx tsx bench/soak.ts`
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { mockToken, requests } from './load-requests.ts';
import { LOAD_CPU, startScript } from './targets.ts';
import { measure, requireWrk } from './wrk.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '60' } } });
const SECONDS = Number(values.seconds);
const SAMPLE_SECONDS = 5;

const rssMiB = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
  return Math.round(Number(line?.[1] ?? 0) / 1024);
};

requireWrk();
for (const [name, retain] of [
  ['retain none', 'keep-all'],
  ['retain 10s, 10,000 kept', 'retain=10000'],
] as const) {
  const target = await startScript(`pacu mock, ${name}`, 'bench/servers/mock-server.mjs', ['', retain]);
  const token = await mockToken(target);
  const post = requests(token, target.info.merchantAccountId as string)['POST /payments/usd/direct'];
  const samples: number[] = [];
  let made = 0;
  for (let elapsed = 0; elapsed < SECONDS; elapsed += SAMPLE_SECONDS) {
    const result = await measure(target, post, 16, SAMPLE_SECONDS, LOAD_CPU);
    made += result.total;
    samples.push(rssMiB(target.pid as number));
  }
  await target.stop();
  console.log(
    `${name.padEnd(24)} ${made} transfers in ${SECONDS} s; RSS every ${SAMPLE_SECONDS} s (MiB): ${samples.join(' ')}`,
  );
}
