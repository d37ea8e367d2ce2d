import pg from 'pg';
import { startPostgres } from '../test/helpers/postgres.ts';
import { pinTree } from './process-cpu.ts';

const server = await startPostgres({ settings: { max_connections: 300 } });
pinTree(server.pid as number, '1');
const url = await server.createDatabase('micro');
const pool = new pg.Pool({ connectionString: url, max: Number(process.env.MAX ?? 10) });
await pool.query('CREATE TABLE t (id text PRIMARY KEY, doc jsonb NOT NULL)');
const doc = {
  record: {
    transaction_id: 'x',
    amount: 12.5,
    currency: 'USD',
    status: 'pending',
    reference: 'abc',
    created_at: new Date().toISOString(),
  },
  clientId: 'c',
  lifecycle: { next: 0, steps: [{ at: 1, status: 'completed' }] },
};
let n = 0;
const clients = await Promise.all(
  Array.from({ length: 10 }, async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    return c;
  }),
);
let rr = 0;
const direct = process.env.DIRECT === '1';
const q = (config: any) => (direct ? clients[rr++ % clients.length]!.query(config) : pool.query(config));
const kind = process.argv[2] ?? 'select';
const one = async () => {
  const i = n++;
  if (kind === 'select') await q({ name: 's', text: 'SELECT json_build_array(1, 2) AS config', values: [] });
  else
    await q({
      name: 'i',
      text: 'INSERT INTO t (id, doc) VALUES ($1, $2) RETURNING doc',
      values: [`id${i}-${Math.random()}`, doc],
    });
};
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const run = async (ms: number) => {
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (performance.now() < end) await one();
    }),
  );
};
await run(1000);
n = 0;
const c0 = cpu();
const t0 = performance.now();
await run(5000);
const c1 = cpu();
console.log(
  kind,
  'queries/s',
  Math.round(n / ((performance.now() - t0) / 1000)),
  'client CPU us/query',
  Math.round((c1 - c0) / n),
);
await pool.end();
for (const c of clients) await c.end();
await server.close();
