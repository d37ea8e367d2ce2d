// pacu proxy compiles its judge's schemas once it listens, a little at a time, not on the first
// exchanges: in a process of its own (the compiled pacu), whose schemas no other test compiled, in
// front of an upstream that answers everything with one JSON body and compiles nothing itself.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const dist = (file: string): string => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));

const CHILD = `
import { createServer } from 'node:http';
import { startProxy } from ${JSON.stringify(dist('proxy/index.js'))};
import { schemasCompiled } from ${JSON.stringify(dist('spec/schema-validator.js'))};
const upstream = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"success":true,"message":"ok","data":{}}');
  });
});
await new Promise((listening) => upstream.listen(0, '127.0.0.1', listening));
const proxy = await startProxy({ upstream: 'http://127.0.0.1:' + upstream.address().port + '/v3', port: 0, onFinding: () => {} });
// Idle until the count has not moved for a while: the warm-up, if any, is done.
let seen = -1;
for (let still = 0; still < 5; ) {
  await new Promise((later) => setTimeout(later, 60));
  const now = schemasCompiled();
  still = now === seen ? still + 1 : 0;
  seen = now;
}
const json = { 'content-type': 'application/json', authorization: 'Bearer t' };
await Promise.all([
  fetch(proxy.url + '/auth/token', { method: 'POST', headers: { authorization: 'Basic YTpi', 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' }),
  fetch(proxy.url + '/payments/usd/direct', { method: 'POST', headers: json, body: '{"amount":1}' }),
  fetch(proxy.url + '/users?page=1', { headers: json }),
  fetch(proxy.url + '/cards/card_1', { headers: json }),
].map((answer) => answer.then((response) => response.text())));
// Judged once settled: the exchanges counted are the ones judged.
while (proxy.counts().exchanges < 4) await new Promise((later) => setTimeout(later, 10));
process.stdout.write(JSON.stringify({ beforeTraffic: seen, afterTraffic: schemasCompiled() }));
await proxy.close();
upstream.close();
`;

it('compiles every schema its judge asks for before the traffic comes, none on the first exchanges, and lets the process end', async () => {
  const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--input-type=module', '-e', CHILD],
      { timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve({ stdout }),
    ),
  );
  const { beforeTraffic, afterTraffic } = JSON.parse(stdout) as Record<string, number>;
  expect(beforeTraffic).toBeGreaterThan(0);
  expect(afterTraffic).toBe(beforeTraffic);
});
