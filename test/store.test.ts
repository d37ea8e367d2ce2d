// The store contract (test/store.case.ts) on every backend: memory, the state file, and a real
// PostgreSQL this file starts (one server, a database per store opened).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createRedactor } from '../http/index.ts';
import { DEFAULT_SCENARIO, MOCK_DEFAULTS } from '../mock/index.ts';
import { seedState } from '../mock/internal/seed.ts';
import { openFileStore } from '../mock/internal/store/file-store.ts';
import { createMemoryStore, type StoreSettings } from '../mock/internal/store/memory-store.ts';
import { openPgStore } from '../mock/internal/store/pg/pg-store.ts';
import { loadSpec } from '../spec/index.ts';
import { startPostgres, type TestPostgres } from './helpers/postgres.ts';
import { STORE_CASES, type StoreBackend } from './store.case.ts';

const spec = await loadSpec();
const settings: StoreSettings = {
  spec,
  seed: 1,
  clock: 'manual',
  clockStart: Date.UTC(2026, 0, 1),
  scenario: { rules: [] },
  journalSize: 100,
  redactor: createRedactor({}),
  basePath: spec.basePath,
  webhookRetry: { ...MOCK_DEFAULTS.webhookRetry, delaysMs: [] },
  retention: { ms: MOCK_DEFAULTS.retain, records: MOCK_DEFAULTS.retainRecords },
  log: () => {},
};
const initial = () => seedState(1);
void DEFAULT_SCENARIO;

let postgres: TestPostgres;
const folder = mkdtempSync(path.join(tmpdir(), 'pacu-store-'));
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.close();
  rmSync(folder, { recursive: true, force: true });
});

let files = 0;
let lastFile = '';
let lastDatabase = '';
const BACKENDS: readonly StoreBackend[] = [
  {
    name: 'memory',
    open: async (retention) =>
      createMemoryStore({ ...settings, ...(retention ? { retention } : {}) }, initial(), undefined),
  },
  {
    name: 'state file',
    async open(retention) {
      lastFile = path.join(folder, `state-${++files}.jsonl`);
      const chosen = { ...settings, ...(retention ? { retention } : {}) };
      return openFileStore(chosen, { file: lastFile, fsync: false, compactAfterBytes: 1 << 26 }, initial);
    },
    reopen: () =>
      openFileStore(settings, { file: lastFile, fsync: false, compactAfterBytes: 1 << 26 }, initial),
  },
  {
    name: 'postgres',
    async open(retention) {
      lastDatabase = await postgres.createDatabase();
      const chosen = { ...settings, ...(retention ? { retention } : {}) };
      return openPgStore(chosen, { url: lastDatabase, reset: false, recording: undefined }, initial);
    },
    reopen: () => openPgStore(settings, { url: lastDatabase, reset: false, recording: undefined }, initial),
  },
];

for (const backend of BACKENDS)
  describe(`store contract: ${backend.name}`, () => {
    for (const storeCase of STORE_CASES) it(storeCase.name, () => storeCase.run(backend), 30_000);
  });
