// The build reads the description's operations with Prism's reader once (decision 199): a mock
// started from dist/ loads only Prism's validator, and what it validates against is exactly what
// Prism's reader makes of the description today.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prismReaders, readOperations } from '../mock/prism-adapter.ts';
import { loadSpec } from '../spec/index.ts';
import { encodeGraph, type ParsedDescription } from '../spec/parsed-description.ts';
import { PACU_BIN } from './helpers/pacu-bin.ts';
import { getJson, postJson, tokenFor, transferBody } from './mock-helpers.ts';
import { endOf, mockOf, startCli } from './mock-process.ts';

const BUILT = path.join(path.dirname(path.dirname(PACU_BIN)), 'spec', 'openapi.yaml.parsed.json');

/** Preloaded into the mock: at exit, which of Prism's packages it had loaded. */
const WATCH = `
const { createRequire } = require('node:module');
process.on('exit', () => {
  const files = Object.keys(createRequire(__filename).cache);
  const used = (name) => files.some((file) => file.includes('/node_modules/' + name + '/'));
  process.stderr.write('\\nLOADED ' + JSON.stringify({
    validator: files.some((file) => file.includes('/node_modules/@stoplight/prism-http/dist/validator/')),
    reader: used('@stoplight/http-spec'),
    refParser: used('@stoplight/json-schema-ref-parser'),
  }) + '\\n');
});`;

describe("Prism's reading of the description, made by the build", () => {
  it("is what Prism's reader makes of the description now, read by the same reader versions", async () => {
    const built = JSON.parse(readFileSync(BUILT, 'utf8')) as ParsedDescription;
    expect(built.prism?.readers).toEqual(prismReaders());
    const fresh = await readOperations(JSON.parse(JSON.stringify((await loadSpec()).document)));
    expect(fresh.length).toBe(9);
    expect(built.prism?.operations).toEqual(encodeGraph(fresh));
  });

  it('leaves Prism’s reader and the $ref resolver unloaded in a mock that validated requests', async () => {
    const preload = path.join(mkdtempSync(path.join(tmpdir(), 'pacu-prism-')), 'watch.cjs');
    writeFileSync(preload, WATCH);
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
    const line = started
      .stderr()
      .split('\n')
      .find((text) => text.startsWith('LOADED '));
    expect(JSON.parse((line as string).slice('LOADED '.length))).toEqual({
      validator: true,
      reader: false,
      refParser: false,
    });
  });
});
