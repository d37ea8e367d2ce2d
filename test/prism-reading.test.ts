// The build reads the description's operations with Prism's reader once (decision 199): a mock
// started from dist/ loads only Prism's validator, and what it validates against is exactly what
// Prism's reader makes of the description today.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type PrismReading,
  prismReaders,
  prismReadingPathOf,
  readOperations,
} from '../mock/prism-adapter.ts';
import { encodeGraph, loadSpec } from '../spec/index.ts';
import { loadedPackages, loadedPackagesPreload } from './helpers/loaded-packages.ts';
import { PACU_BIN } from './helpers/pacu-bin.ts';
import { getJson, postJson, tokenFor, transferBody } from './mock-helpers.ts';
import { endOf, mockOf, startCli } from './mock-process.ts';

const BUILT_SPEC = path.join(path.dirname(path.dirname(PACU_BIN)), 'spec', 'openapi.yaml');

describe("Prism's reading of the description, made by the build", () => {
  it("is what Prism's reader makes of the description now, read by the same reader versions", async () => {
    const built = JSON.parse(readFileSync(prismReadingPathOf(BUILT_SPEC), 'utf8')) as PrismReading;
    const spec = await loadSpec(BUILT_SPEC);
    expect(built.sha256).toBe(spec.digest);
    expect(built.readers).toEqual(prismReaders());
    const fresh = await readOperations(JSON.parse(JSON.stringify(spec.document)));
    expect(fresh.length).toBe(9);
    expect(built.operations).toEqual(encodeGraph(fresh));
  });

  it('leaves Prism’s reader and the $ref resolver unloaded in a mock that validated requests', async () => {
    const preload = loadedPackagesPreload({
      validator: '@stoplight/prism-http/dist/validator',
      reader: '@stoplight/http-spec',
      refParser: '@stoplight/json-schema-ref-parser',
    });
    // A pool size given, so the process started is the one that serves (decision 042).
    const started = await startCli(['--port', '0'], {
      env: { ...process.env, NODE_OPTIONS: `--v8-pool-size=0 --require ${preload}` },
    });
    const mock = mockOf(started.info);
    const token = await tokenFor(mock);
    const merchant = started.info.merchantAccountId as string;
    // One valid request and one Prism refuses: the validator ran on both.
    expect((await postJson(`${mock.url}/payments/usd/direct`, token, transferBody(merchant))).status).toBe(
      200,
    );
    const refused = await postJson(`${mock.url}/payments/usd/direct`, token, { amount: 'ten' });
    expect(refused.status).toBe(400);
    expect((await getJson(`${mock.url}/users`, token)).status).toBe(200);
    const end = endOf(started.child);
    started.child.kill('SIGTERM');
    await end;
    expect(loadedPackages(started.stderr())).toEqual({
      validator: true,
      reader: false,
      refParser: false,
    });
  });
});
