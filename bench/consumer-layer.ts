// What the consumer layer costs before an operation runs: GET /v3/users in-process, with no fault held
// (no look-ahead) and with one held for another operation (route, client and body looked at first).
// Run: npx tsx bench/consumer-layer.ts (medians of 5 rounds; noisy while other work shares the cores).
import { createMock } from '../mock/index.ts';

const app = await createMock({ clock: 'manual', log: () => {} });
const form = new URLSearchParams({ grant_type: 'client_credentials' }).toString();
const auth = `Basic ${Buffer.from('pacu-demo:pacu-demo-secret').toString('base64')}`;
const tok = (await (
  await app.request('/v3/auth/token', {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  })
).json()) as { data: { access_token: string } };
const headers = { authorization: `Bearer ${tok.data.access_token}` };
async function run(n: number): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < n; i++) await (await app.request('/v3/users', { headers })).arrayBuffer();
  return (n / (performance.now() - t)) * 1000;
}
await run(2000);
const rounds: Array<[number, number]> = [];
for (let r = 0; r < 5; r++) {
  app.control.clearFaults();
  const off = await run(5000);
  app.control.addFault({ operation: 'usdTransfer', kind: 'status', status: 503 });
  const on = await run(5000);
  rounds.push([off, on]);
}
const med = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const off = med(rounds.map((r) => r[0])),
  on = med(rounds.map((r) => r[1]));
console.log(
  `GET /v3/users in-process: unarmed ${off.toFixed(0)} req/s, armed ${on.toFixed(0)} req/s, ratio ${(on / off).toFixed(2)}`,
);
await app.close();
