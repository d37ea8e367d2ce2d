import { createWriteStream } from 'node:fs';

/** A state dump as `GET /__pacu/state` returns it: the header fields plus one array per collection. */
export type StateDump = Record<string, unknown> & { now: number; seeded: Record<string, string> };

const HEADER_FIELDS = ['format', 'version', 'now', 'seeded'];

/**
 * Write a state file (JSON Lines, as the README documents: the header, then one
 * `[collection, item]` per line) holding `dump` plus `count` settled transfers, streamed so the
 * bench's own memory stays flat.
 */
export async function writeStateWithTransfers(
  file: string,
  dump: StateDump,
  count: number,
  clientId: string,
): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  };
  await write(`${JSON.stringify(Object.fromEntries(HEADER_FIELDS.map((key) => [key, dump[key]])))}\n`);
  for (const [collection, items] of Object.entries(dump)) {
    if (!Array.isArray(items)) continue;
    for (const item of items) await write(`${JSON.stringify([collection, item])}\n`);
  }
  let chunk = '';
  for (let index = 0; index < count; index++) {
    const record = {
      account_number: String(100000000 + index),
      account_type: 'CHECKING',
      amount: (index % 100000) / 100 + 1,
      description: 'bulk',
      reference: `BULK-${index}`,
      recipient_email: `payee${index}@example.com`,
      recipient_name: 'Bulk Payee',
      routing_number: '021000021',
      transaction_date: '2024-06-14T10:20:00Z',
      transaction_id: `txn_bulk${index.toString(16).padStart(12, '0')}`,
      transaction_status: 'successful',
      transfer_type: 'ACH',
    };
    const accountId = dump.seeded.merchantAccountId;
    chunk += `${JSON.stringify(['transfers', { record, clientId, accountId, fingerprint: `bulk${index}` }])}\n`;
    if (chunk.length > 1 << 20) {
      await write(chunk);
      chunk = '';
    }
  }
  out.end(chunk);
  await new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
  });
}
