// One case list for the store seam (mock/internal/store/state-store.ts), run against every backend:
// memory, the state file and PostgreSQL (hono's router/common.case.test.ts: one suite, many
// implementations). What a handler relies on is here; a backend that keeps it in its own way passes.
import { expect } from 'vitest';
import type { StoredTransfer } from '../mock/internal/state.ts';
import type { StateStore } from '../mock/internal/store/state-store.ts';

/** A backend under test: a fresh store, seeded with seed 1 on a manual clock; and the same again after close. */
export interface StoreBackend {
  readonly name: string;
  /** `retention`: what it keeps, when the case needs other than the default. */
  open(retention?: { ms: number; records: number }): Promise<StateStore>;
  /** The store `open()` made last, opened again after it was closed (durable backends only). */
  reopen?(): Promise<StateStore>;
}

export interface StoreCase {
  readonly name: string;
  run(backend: StoreBackend): Promise<void>;
}

const transfer = (clientId: string, reference: string, id: string, amount = 10): StoredTransfer => ({
  record: {
    account_number: '123456789',
    account_type: 'CHECKING',
    amount,
    description: '',
    reference,
    recipient_email: 'ana@example.com',
    recipient_name: 'Ana',
    routing_number: '021000021',
    transaction_date: '2026-01-01T00:00:00Z',
    transaction_id: id,
    transaction_status: 'processing',
    transfer_type: 'ACH',
  },
  clientId,
  accountId: 'acct_x',
  fingerprint: `print-${amount}`,
});

const token = (value: string, clientId: string, expiresAt = Date.now() + 3_600_000) => ({
  token: value,
  clientId,
  scopes: ['card' as const, 'us_account' as const],
  expiresAt,
});

/** Open, run, close: every case leaves nothing running. */
async function using(backend: StoreBackend, run: (store: StateStore) => Promise<void>): Promise<void> {
  const store = await backend.open();
  try {
    await run(store);
  } finally {
    await store.close();
  }
}

export const STORE_CASES: readonly StoreCase[] = [
  {
    name: 'a transfer is stored once per client and reference; the second writer gets the first one',
    run: (backend) =>
      using(backend, async (store) => {
        const first = await store.records.insertTransfer(transfer('c1', 'R-1', 'txn_1'));
        const again = await store.records.insertTransfer(transfer('c1', 'R-1', 'txn_2', 99));
        const other = await store.records.insertTransfer(transfer('c2', 'R-1', 'txn_3'));
        expect(first.created).toBe(true);
        expect(again).toMatchObject({
          created: false,
          stored: { record: { transaction_id: 'txn_1', amount: 10 } },
        });
        expect(other.created).toBe(true);
      }),
  },
  {
    name: 'concurrent writers of one reference make one transfer',
    run: (backend) =>
      using(backend, async (store) => {
        const results = await Promise.all(
          Array.from({ length: 12 }, async (_, index) =>
            store.records.insertTransfer(transfer('c1', 'R-STORM', `txn_s${index}`)),
          ),
        );
        expect(results.filter((result) => result.created)).toHaveLength(1);
        expect(new Set(results.map((result) => result.stored.record.transaction_id)).size).toBe(1);
      }),
  },
  {
    name: "a request's keys are read together: the token, its client's reference, the seeded records",
    run: (backend) =>
      using(backend, async (store) => {
        await store.records.addToken(token('tok-1', 'c1'));
        await store.records.insertTransfer(transfer('c1', 'R-READ', 'txn_r'));
        const { seeded } = store;
        const found = await store.records.read({
          token: 'tok-1',
          reference: 'R-READ',
          accountId: seeded.merchantAccountId,
          cardId: seeded.cardId,
          cardTransactionId: seeded.cardTransactionId,
          pushToCardId: seeded.pushToCardId,
          userId: seeded.userId,
          usersPage: { start: 40, size: 20 },
        });
        expect(found.token?.clientId).toBe('c1');
        expect(found.reference?.record.transaction_id).toBe('txn_r');
        expect(found.account?.record.account_id).toBe(seeded.merchantAccountId);
        expect(found.card?.card_id).toBe(seeded.cardId);
        expect(found.cardTransaction?.transaction_id).toBe(seeded.cardTransactionId);
        expect(found.pushToCard?.record.transaction_id).toBe(seeded.pushToCardId);
        expect(found.user?.user_id).toBe(seeded.userId);
        expect(found.users?.total).toBe(45);
        expect(found.users?.items).toHaveLength(5);
        const other = await store.records.read({
          token: 'unknown',
          reference: 'R-READ',
          accountId: 'acct_none',
        });
        expect(other).toEqual({});
      }),
  },
  {
    name: 'tokens are added, deleted and swept when expired',
    run: (backend) =>
      using(backend, async (store) => {
        await store.records.addToken(token('tok-a', 'c1'));
        await store.records.addToken(token('tok-old', 'c1', 1));
        await store.records.deleteToken('tok-a');
        await store.records.sweepTokens(1000);
        const found = await store.records.read({ token: 'tok-a' });
        expect(found.token).toBeUndefined();
        expect((await store.records.read({ token: 'tok-old' })).token).toBeUndefined();
      }),
  },
  {
    name: 'a p2p notification is marked once, with its one event in the outbox',
    run: (backend) =>
      using(backend, async (store) => {
        const event = { type: 'p2p.validated', payload: { user_id: 'usr_1' }, clientId: 'c1' };
        const marks = await Promise.all(
          [1, 2, 3].map(async () => store.records.markP2pNotified('usr_1', event)),
        );
        expect(marks.filter(Boolean)).toHaveLength(1);
        expect(await store.records.markP2pNotified('usr_1', event)).toBe(false);
        const events = await store.webhooks.events();
        expect(events.map((made) => [made.type, JSON.parse(made.body), made.clientId])).toEqual([
          ['p2p.validated', { user_id: 'usr_1' }, 'c1'],
        ]);
      }),
  },
  {
    name: 'clients and receivers are put (again without conflict), listed and removed',
    run: (backend) =>
      using(backend, async (store) => {
        const client = { clientId: 'ci', clientSecret: 's', scopes: ['card' as const] };
        await store.records.putClient(client);
        await store.records.putClient(client);
        expect((await store.records.read({ clientId: 'ci' })).client).toEqual(client);
        await store.records.putReceiver({ id: 'rcv_1', url: 'http://127.0.0.1:9/h', secret: 'whsec_x' });
        expect((await store.records.receivers()).map((receiver) => receiver.id)).toEqual(['rcv_1']);
        expect(await store.records.deleteReceiver('rcv_1')).toBe(true);
        expect(await store.records.deleteReceiver('rcv_1')).toBe(false);
      }),
  },
  {
    name: 'a fault with times fires exactly that many times, however many ask at once',
    run: (backend) =>
      using(backend, async (store) => {
        const added = await store.faults.add({
          operation: 'listUsers',
          kind: 'status',
          status: 503,
          times: 3,
        });
        // A shared store refreshes what it holds on a read, as a request's read does.
        await store.records.read({});
        const target = { operationId: 'listUsers', clientId: undefined, body: undefined };
        const fired = await Promise.all(Array.from({ length: 8 }, async () => store.faults.fire(target)));
        expect(fired.filter((fault) => fault?.id === added.id)).toHaveLength(3);
        expect(await store.faults.list()).toEqual([]);
      }),
  },
  {
    name: 'the scenario is set and read back',
    run: (backend) =>
      using(backend, async (store) => {
        const scenario = {
          rules: [{ match: { amount: 7 }, steps: [{ after: 1, status: 'failed' as const }] }],
        };
        await store.setScenario(scenario);
        await store.records.read({});
        expect(store.scenario()).toEqual(scenario);
      }),
  },
  {
    name: 'a manual clock moves, and a lifecycle step falls due on it once',
    run: (backend) =>
      using(backend, async (store) => {
        const start = await store.clock.current();
        const stored = transfer('c1', 'R-LIFE', 'txn_life');
        stored.lifecycle = { steps: [{ at: start + 5000, status: 'successful' }], next: 0 };
        await store.records.insertTransfer(stored);
        expect(await store.clock.advance(10_000)).toBe(start + 10_000);
        const dumped = await store.dump();
        const after = dumped.transfers.find(
          (item) => (item as StoredTransfer).record.transaction_id === 'txn_life',
        ) as StoredTransfer;
        expect(after.record.transaction_status).toBe('successful');
        expect((await store.webhooks.events()).map((event) => event.type)).toEqual([
          'usd_transfer.successful',
        ]);
      }),
  },
  {
    name: 'a reset goes back to the seed and keeps clients and tokens; a client reset takes only its data',
    run: (backend) =>
      using(backend, async (store) => {
        const { seedState } = await import('../mock/internal/seed.ts');
        await store.records.addToken(token('tok-keep', 'c1'));
        await store.records.insertTransfer(transfer('c1', 'R-A', 'txn_a'));
        await store.records.insertTransfer(transfer('c2', 'R-B', 'txn_b'));
        await store.reset(() => seedState(1), 'c1');
        let dumped = await store.dump();
        expect(dumped.transfers.map((item) => (item as StoredTransfer).record.transaction_id)).toEqual([
          'txn_b',
        ]);
        await store.reset(() => seedState(1));
        dumped = await store.dump();
        expect(dumped.transfers).toEqual([]);
        expect(dumped.users).toHaveLength(45);
        expect((await store.records.read({ token: 'tok-keep' })).token?.clientId).toBe('c1');
      }),
  },
  {
    name: 'a dump loads back as it was',
    run: (backend) =>
      using(backend, async (store) => {
        const { fromSnapshot } = await import('../mock/internal/snapshot.ts');
        const { loadSpec } = await import('../spec/index.ts');
        await store.records.insertTransfer(transfer('c1', 'R-D', 'txn_d'));
        const dumped = await store.dump();
        const loaded = fromSnapshot(await loadSpec(), dumped);
        if ('problems' in loaded) throw new Error(loaded.problems.join('; '));
        await store.load(loaded.state, loaded.now);
        const again = await store.dump();
        expect({ ...again, now: 0 }).toEqual({ ...dumped, now: 0 });
      }),
  },
  {
    name: 'the journal and coverage keep what they are told; a reset clears the journal, not coverage',
    run: (backend) =>
      using(backend, async (store) => {
        const request = {
          method: 'GET',
          path: '/v3/users',
          query: new URLSearchParams(),
          headers: {},
          body: Buffer.alloc(0),
        };
        store.journal.end?.({ request, operationId: 'listUsers', clientId: 'c1', status: 200 } as never);
        store.coverage.end?.({ request, operationId: 'listUsers', clientId: 'c1', status: 200 } as never);
        expect((await store.journal.query({ clientId: 'c1' })).map((entry) => entry.status)).toEqual([200]);
        await store.journal.clear('c1');
        expect(await store.journal.query({})).toEqual([]);
        const coverage = await store.coverage.report([]);
        expect(coverage.operations.find((row) => row.operationId === 'listUsers')?.statuses).toEqual({
          200: 1,
        });
      }),
  },
  {
    name: 'retention forgets what clients made past it, beyond the newest N; seeded records stay',
    async run(backend) {
      const store = await backend.open({ ms: 60_000, records: 2 });
      try {
        for (let index = 0; index < 5; index++) {
          await store.records.insertTransfer(transfer('c1', `R-OLD-${index}`, `txn_old${index}`));
          await store.clock.advance(1000);
        }
        await store.clock.advance(120_000);
        const dumped = await store.dump();
        const kept = dumped.transfers.map((item) => (item as StoredTransfer).record.transaction_id);
        expect(kept.sort()).toEqual(['txn_old3', 'txn_old4']);
        await store.records.addToken(token('tok-p', 'c1'));
        expect(
          (await store.records.read({ token: 'tok-p', reference: 'R-OLD-0' })).reference,
        ).toBeUndefined();
        expect(dumped.pushToCard).toHaveLength(2);
        expect(dumped.accounts).toHaveLength(1);
      } finally {
        await store.close();
      }
    },
  },
  {
    name: 'what was acknowledged is there after a restart (durable backends)',
    async run(backend) {
      if (!backend.reopen) return;
      const store = await backend.open();
      await store.records.insertTransfer(transfer('c1', 'R-KEEP', 'txn_keep'));
      await store.committed();
      await store.close();
      const again = await backend.reopen();
      try {
        expect((await again.records.read({ reference: 'R-KEEP' })).reference).toBeUndefined();
        await again.records.addToken(token('tok-r', 'c1'));
        expect(
          (await again.records.read({ token: 'tok-r', reference: 'R-KEEP' })).reference?.record
            .transaction_id,
        ).toBe('txn_keep');
      } finally {
        await again.close();
      }
    },
  },
];
