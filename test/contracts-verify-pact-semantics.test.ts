import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPacts } from '../contracts/index.ts';
import { resolveTargetConfig } from '../suites/index.ts';
import { runReferenceVerifier } from './helpers/reference-verifier.ts';
import { runCli } from './helpers/run-cli.ts';

// A provider nobody wrote pacts for: GET /v3/things/1 answers { name: 'a' }.
let server: Server;
let target: string;
let dir: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/v3/secret' && req.headers.authorization !== 'Bearer issued-token') {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"success":false,"message":"no"}');
      return;
    }
    const found = req.url === '/v3/things/1' || req.url === '/v3/secret';
    res
      .writeHead(found ? 200 : 404, { 'content-type': 'application/json' })
      .end(JSON.stringify(found ? { name: 'a' } : { success: false, message: 'not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`;
  dir = await mkdtemp(join(tmpdir(), 'pacu-semantics-'));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

/** A V3 pact of another consumer, written by hand as Pact's documentation shows. */
async function pactFile(name: string, interactions: unknown[]): Promise<string> {
  const file = join(dir, `${name}.json`);
  const pact = {
    consumer: { name: 'other-consumer' },
    provider: { name: 'things-api' },
    interactions,
    metadata: { pactSpecification: { version: '3.0.0' } },
  };
  await writeFile(file, JSON.stringify(pact));
  return file;
}

const thing = (states: string[], name: string): unknown => ({
  description: 'a request for a thing',
  providerStates: states.map((state) => ({ name: state })),
  request: { method: 'GET', path: '/things/1' },
  response: { status: 200, headers: { 'Content-Type': 'application/json' }, body: { name } },
});

const cli = runCli;

describe('pacu verify judges other consumers’ pacts as Pact judges them', () => {
  it('runs interactions whose states pacu does not know without setup, warns, and attributes results by identity', async () => {
    // Same description, different states: legal in Pact; the first holds, the second does not.
    const file = await pactFile('unknown-states', [
      thing(['thing one exists'], 'a'),
      thing(['thing one is renamed', 'it is Tuesday'], 'b'),
    ]);
    const report = await verifyPacts({ target: resolveTargetConfig({ target }), pacts: [file] });
    expect(report.rules.map((rule) => rule.status)).toEqual(['passed', 'failed']);
    expect(report.rules[0]?.notes).toEqual([
      'no state handler found for state "thing one exists": the interaction ran without setup',
    ]);
    expect(report.rules[1]?.failure?.reason).toContain("Expected 'a' (String) to be equal to 'b' (String)");

    const reference = await runReferenceVerifier(target, [file]);
    expect(reference.map((row) => row.passed)).toEqual(report.rules.map((rule) => rule.status === 'passed'));
  });

  it('fails, exit 1, a pact whose every state is unknown when its interactions fail; never exit 0 on nothing verified', async () => {
    const failing = await pactFile('all-unknown', [
      thing(['state x'], 'b'),
      { ...(thing(['state y'], 'b') as object), description: 'another request for a thing' },
    ]);
    const result = await cli(['verify', '--target', target, '--pact', failing]);
    expect(result.stdout).toContain('2 interactions against');
    expect(result.stdout).toContain('0 verified, 2 failed, 0 skipped');
    expect(result.code).toBe(1);

    // Every interaction needs a record the user did not name: nothing can be verified.
    const skipped = await pactFile('all-skipped', [thing(['a virtual card exists'], 'a')]);
    const nothing = await cli(['verify', '--target', target, '--pact', skipped]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr.trim().split('\n')).toHaveLength(1);
    expect(nothing.stderr).toContain('pacu: nothing verified: the 1 interaction was skipped');
    expect(nothing.stderr).toContain('--card-id');
  });

  it('hints where Pact users go wrong: a /v3 path against a /v3 target, a V2 pact with a literal bearer token', async () => {
    const file = await pactFile('mistakes', [
      {
        ...(thing([], 'a') as object),
        description: 'a path with the base path in it',
        request: { method: 'GET', path: '/v3/things/1' },
      },
    ]);
    const v2 = join(dir, 'v2.json');
    await writeFile(
      v2,
      JSON.stringify({
        consumer: { name: 'old-app' },
        provider: { name: 'things-api' },
        interactions: [
          {
            description: 'a secret thing',
            request: {
              method: 'GET',
              path: '/secret',
              headers: { Authorization: 'Bearer token-from-my-laptop' },
            },
            response: { status: 200, body: { name: 'a' } },
          },
        ],
        metadata: { pactSpecification: { version: '2.0.0' } },
      }),
    );
    const report = await verifyPacts({ target: resolveTargetConfig({ target }), pacts: [file, v2] });
    const reasons = report.rules.map((rule) => rule.failure?.reason ?? '');
    expect(reasons[0]).toContain(
      "hint: the pact's path /v3/things/1 starts with /v3 and the target already ends in /v3, so the request went to /v3/v3/things/1: write pact paths relative to the base URL (/things/1)",
    );
    expect(reasons[1]).toContain(
      'hint: this V2 pact sends a literal bearer token, which no provider issued, so it can never verify',
    );
    expect(JSON.stringify(report)).not.toContain('token-from-my-laptop');
  });

  it('shows a failure as check does: the request and curl as sent, and the response (issue 19, finding 5)', async () => {
    const file = await pactFile('as-sent', [
      {
        ...(thing([], 'a') as object),
        description: 'a thing under /v3',
        request: { method: 'GET', path: '/v3/things/1' },
      },
    ]);
    const html = join(dir, 'as-sent.html');
    const result = await cli([
      'verify',
      '--target',
      target,
      '--pact',
      file,
      '--reporter',
      'console',
      '--reporter',
      `html:${html}`,
    ]);
    expect(result.code).toBe(1);
    // The target's base path plus the pact's path: what the hint says and the provider got.
    expect(result.stdout).toContain('request:  GET /v3/things/1');
    expect(result.stdout).toContain(`curl:     curl -i -X GET '${target}/v3/things/1'`);
    expect(result.stdout).toContain('so the request went to /v3/v3/things/1');
    expect(result.stdout).toContain('response: HTTP 404 application/json');
    expect(result.stdout).toContain('{"success":false,"message":"not found"}');
    const page = await readFile(html, 'utf8');
    expect(page).toContain('404');
    expect(page).toContain('not found');

    const spec = await cli(['verify', '--against-spec', '--pact', file]);
    const curl = spec.stdout.split('\n').find((line) => line.includes('curl:')) ?? '';
    // No provider was called: the curl line sends the pact's path to the provider the user names,
    // so a PACU_TARGET ending in /v3 shows the doubled /v3/v3 the verifier would send.
    expect(curl).toMatch(/"\$PACU_TARGET"'\/v3\/things\/1'/);
  });
});
