import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { okListReply, replyText } from './envelope.ts';
import { seedState } from './seed.ts';
import type { StoredTransfer } from './state.ts';
import { MockStore } from './store/mock-store.ts';

describe('okListReply', () => {
  it('renders the same text as JSON.stringify of its body, for any items and fields', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(fc.dictionary(fc.string(), fc.jsonValue())),
        // Field names are words (page, total_count): integer-like keys would sort first in any object.
        fc.dictionary(fc.stringMatching(/^[a-z_]{1,12}$/), fc.integer()),
        (message, items, fields) => {
          const reply = okListReply(message, items, fields, (item) => JSON.stringify(item));
          expect(reply.text).toBe(JSON.stringify(reply.body));
          expect(replyText(reply)).toBe(reply.text);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('MockStore.rendered', () => {
  it("is an item's JSON, and a write of the item drops the cached text", () => {
    const store = new MockStore(seedState(1));
    const transfer = {
      record: { transaction_id: 'txn_1', reference: 'REF-1', transaction_status: 'processing', amount: 1 },
      clientId: 'pacu-demo',
      accountId: 'acct_1',
      fingerprint: 'f',
    } as unknown as StoredTransfer;
    store.addTransfer(transfer);
    expect(store.rendered(transfer.record)).toBe(JSON.stringify(transfer.record));
    store.applyStep('usd_transfer', transfer, 'failed');
    expect(store.rendered(transfer.record)).toBe(JSON.stringify(transfer.record));
    expect(JSON.parse(store.rendered(transfer.record)).transaction_status).toBe('failed');
  });
});
