// Scratch benchmark behind docs/decisions/041 (not part of npm run bench; lmdb is not a dependency).
// Run in a scratch directory: npm init -y && npm install lmdb && node lmdb-vs-journal.mjs 200000 1000000
import {
  closeSync,
  createReadStream,
  fdatasyncSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';

const WRITES = Number(process.argv[2] ?? 200000);
const RELOAD = Number(process.argv[3] ?? 1000000);
const BATCH = 32;
const dir = mkdtempSync(path.join(tmpdir(), 'lmdb-vs-journal-'));
const record = (i) => ({
  record: {
    account_number: String(100000000 + i),
    account_type: 'CHECKING',
    amount: (i % 100000) / 100 + 1,
    description: 'bulk',
    reference: `BULK-${i}`,
    recipient_email: `payee${i}@example.com`,
    recipient_name: 'Bulk Payee',
    routing_number: '021000021',
    transaction_date: '2024-06-14T10:20:00Z',
    transaction_id: `txn_bulk${i.toString(16).padStart(12, '0')}`,
    transaction_status: 'processing',
    transfer_type: 'WIRE',
  },
  clientId: 'pacu-demo',
  accountId: 'acct_0123456789abcdef',
  fingerprint: `bulk${i}`,
});
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const report = (name, ms, lat, bytes) =>
  console.log(
    `${name.padEnd(40)} ${Math.round(WRITES / (ms / 1000))
      .toString()
      .padStart(
        8,
      )} records/s  batch p50 ${pct(lat, 50).toFixed(3)} ms  p99 ${pct(lat, 99).toFixed(3)} ms  ${bytes ? `${(bytes / 2 ** 20).toFixed(0)} MiB` : ''}`,
  );

function journal(sync) {
  const file = path.join(dir, `j-${sync}.journal`);
  const fd = openSync(file, 'a', 0o600);
  const lat = [];
  const t0 = performance.now();
  for (let b = 0; b < WRITES / BATCH; b++) {
    const s = performance.now();
    const lines = [];
    for (let k = 0; k < BATCH; k++) lines.push(JSON.stringify(['put', 'transfers', record(b * BATCH + k)]));
    writeSync(fd, `${lines.join('\n')}\n`);
    if (sync) fdatasyncSync(fd);
    lat.push(performance.now() - s);
  }
  const ms = performance.now() - t0;
  closeSync(fd);
  report(`journal ${sync ? '(fdatasync per batch)' : '(write per batch)'}`, ms, lat, statSync(file).size);
}

async function lmdb(noSync) {
  const db = open({ path: path.join(dir, `l-${noSync}`), noSync, compression: false });
  const lat = [];
  const t0 = performance.now();
  for (let b = 0; b < WRITES / BATCH; b++) {
    const s = performance.now();
    db.transactionSync(() => {
      for (let k = 0; k < BATCH; k++) {
        const r = record(b * BATCH + k);
        db.putSync(r.record.transaction_id, r);
      }
    });
    lat.push(performance.now() - s);
  }
  const ms = performance.now() - t0;
  report(`lmdb transactionSync ${noSync ? '(noSync)' : '(sync per txn)'}`, ms, lat);
  await db.close();
}

async function lmdbAsync() {
  // lmdb-js's own batching: put() queues, commits on a background thread, resolves when durable.
  const db = open({ path: path.join(dir, 'l-async'), compression: false });
  const lat = [];
  const t0 = performance.now();
  for (let b = 0; b < WRITES / BATCH; b++) {
    const s = performance.now();
    const pending = [];
    for (let k = 0; k < BATCH; k++) {
      const r = record(b * BATCH + k);
      pending.push(db.put(r.record.transaction_id, r));
    }
    await Promise.all(pending);
    lat.push(performance.now() - s);
  }
  const ms = performance.now() - t0;
  report('lmdb put() async batches (sync)', ms, lat);
  await db.close();
}

async function reload() {
  // Build RELOAD records once in each store, then time reading all of them into a Map.
  const file = path.join(dir, 'reload.journal');
  const fd = openSync(file, 'w', 0o600);
  let chunk = '';
  for (let i = 0; i < RELOAD; i++) {
    chunk += `${JSON.stringify(['put', 'transfers', record(i)])}\n`;
    if (chunk.length > 1 << 20) {
      writeSync(fd, chunk);
      chunk = '';
    }
  }
  writeSync(fd, chunk);
  closeSync(fd);
  const db = open({ path: path.join(dir, 'reload-lmdb'), noSync: true, compression: false });
  for (let b = 0; b < RELOAD; b += 10000)
    db.transactionSync(() => {
      for (let i = b; i < Math.min(RELOAD, b + 10000); i++) {
        const r = record(i);
        db.putSync(r.record.transaction_id, r);
      }
    });
  await db.flushed;
  let t0 = performance.now();
  const fromJournal = new Map();
  let rest = '';
  for await (const c of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const lines = (rest + c).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      const [, , item] = JSON.parse(line);
      fromJournal.set(item.record.transaction_id, item);
    }
  }
  console.log(
    `reload ${RELOAD} into a Map: journal (JSON Lines) ${((performance.now() - t0) / 1000).toFixed(2)} s, ${(statSync(file).size / 2 ** 20).toFixed(0)} MiB`,
  );
  t0 = performance.now();
  const fromLmdb = new Map();
  for (const { key, value } of db.getRange()) fromLmdb.set(key, value);
  console.log(
    `reload ${RELOAD} into a Map: lmdb getRange (msgpack)  ${((performance.now() - t0) / 1000).toFixed(2)} s`,
  );
  await db.close();
}

journal(false);
journal(true);
await lmdb(true);
await lmdb(false);
await lmdbAsync();
await reload();
rmSync(dir, { recursive: true, force: true });
