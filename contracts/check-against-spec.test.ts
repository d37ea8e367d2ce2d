import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../spec/index.ts';
import { ConformanceError } from '../suites/index.ts';
import { assertPactsAgreeWithSpec } from './assert-contracts.ts';
import { checkPactsAgainstSpec, formatFindings, pactSpecReport } from './check-against-spec.ts';
import { PACU_PACT_DIR, PACU_STRICT_PACT_DIR, pacuPactDirs } from './pacu-pacts.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pacu-spec-check-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: a pact fixture that each test bends freely.
type Loose = any;

/** A merchant's own V3 pact for one card read, as another Pact library would write it. */
function userPact(change: (interaction: Record<string, Loose>) => void = () => {}): object {
  const interaction: Record<string, Loose> = {
    description: 'the card screen loads a card',
    providerStates: [{ name: 'a virtual card exists', params: {} }],
    request: {
      method: 'GET',
      path: '/cards/virtual/card_1',
      headers: { Authorization: 'Bearer abc' },
    },
    response: {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: {
        success: true,
        message: 'ok',
        data: { card_id: 'card_1', card_balance: 25.5, card_status: 'ACTIVE', last_four: '1111' },
      },
      matchingRules: {
        body: {
          '$.data.card_balance': { matchers: [{ match: 'number' }] },
          '$.data.card_status': { matchers: [{ match: 'regex', regex: '^(ACTIVE|FROZEN|TERMINATED)$' }] },
        },
      },
    },
  };
  change(interaction);
  return {
    consumer: { name: 'card-screen' },
    provider: { name: 'payments' },
    interactions: [interaction],
    metadata: { pactSpecification: { version: '3.0.0' } },
  };
}

async function findingsOf(pact: object, name: string, profile: 'strict' | 'documented' = 'strict') {
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(pact));
  const check = await checkPactsAgainstSpec([file], { profile });
  return check.interactions.flatMap(formatFindings);
}

describe('checkPactsAgainstSpec', () => {
  it("finds nothing wrong with pacu's own pacts, decisions included, under the whole spec", async () => {
    const check = await checkPactsAgainstSpec(pacuPactDirs('strict'), { profile: 'strict' });
    expect(check.interactions).toHaveLength(10);
    expect(check.interactions.flatMap(formatFindings)).toEqual([]);
    expect(new Set(check.interactions.map((item) => item.operation)).size).toBe(9);
  });

  it('under the documented profile, wants the bearer token only where the description states it', async () => {
    const withoutToken = (path: string, method: string, body?: object) =>
      userPact((interaction) => {
        interaction.request = { method, path, headers: {}, ...(body ? { body } : {}) };
        interaction.response = { status: 400, body: { success: false, message: 'Invalid request' } };
      });
    const transfer = await findingsOf(
      withoutToken('/payments/usd/direct', 'POST', { reference: 'r1' }),
      'no-token-transfer',
      'documented',
    );
    expect(transfer.join('\n')).toContain('$.headers.authorization');
    const card = await findingsOf(
      withoutToken('/cards/virtual/card_1', 'GET'),
      'no-token-card',
      'documented',
    );
    expect(card.join('\n')).not.toContain('$.headers.authorization');
  });

  it('finds nothing but the description in the pacts pacu ships by default; the decisions pact is strict-only', async () => {
    const shipped = await checkPactsAgainstSpec(pacuPactDirs('documented'), { profile: 'documented' });
    expect(shipped.interactions).toHaveLength(9);
    expect(shipped.interactions.flatMap(formatFindings)).toEqual([]);
    const decisions = await checkPactsAgainstSpec([PACU_STRICT_PACT_DIR], { profile: 'documented' });
    expect(decisions.interactions.flatMap(formatFindings)).toEqual([
      expect.stringMatching(
        /reusing a reference.*response \$\.status: the spec has no 409 response for usdTransfer/,
      ),
    ]);
  });

  it("passes a merchant's V3 pact that agrees with the spec", async () => {
    expect(await findingsOf(userPact(), 'agrees')).toEqual([]);
  });

  it('catches a field of the wrong type in the expected response', async () => {
    const findings = await findingsOf(
      userPact((interaction) => {
        interaction.response.body.data.card_balance = '25.50';
      }),
      'wrong-type',
    );
    expect(findings).toContain(
      'the card screen loads a card: response $.body.data.card_balance: must be number',
    );
  });

  it('catches a request body that lacks a required field, and names the field', async () => {
    const pact = JSON.parse(
      await readFile(join(PACU_PACT_DIR, 'pacu-merchant-payments-pacu-api.json'), 'utf8'),
    );
    const transfer = pact.interactions.find(
      (item: { description: string }) => item.description === 'a USD transfer by ACH',
    );
    delete transfer.request.body.content.recipient_name;
    pact.interactions = [transfer];
    expect(await findingsOf(pact, 'missing-field')).toEqual([
      'a USD transfer by ACH: request $.body: must have required property recipient_name',
    ]);
  });

  it('reports an interaction for a path the spec lacks, with a hint for a /v3 prefix', async () => {
    const findings = await findingsOf(
      userPact((interaction) => {
        interaction.request.path = '/v3/cards/virtual/card_1';
      }),
      'unknown-path',
    );
    expect(findings).toEqual([
      'the card screen loads a card: request $.path: the spec has no operation at GET /v3/cards/virtual/card_1 (pact paths are relative to the base URL: write /cards/virtual/card_1)',
    ]);
  });

  it('checks matchers against the schema: types, enums under a regex, fields the spec does not promise', async () => {
    const findings = await findingsOf(
      userPact((interaction) => {
        interaction.response.body.data.nickname = 'Ops';
        interaction.response.matchingRules.body['$.data.card_balance'] = { matchers: [{ match: 'integer' }] };
        interaction.response.matchingRules.body['$.data.card_status'] = {
          matchers: [{ match: 'regex', regex: '^ACTIVE$' }],
        };
      }),
      'matchers',
    );
    expect(findings).toEqual([
      'the card screen loads a card: response $.body.data.nickname: the spec defines no field nickname here',
      'the card screen loads a card: response $.body.data.card_balance: the spec sends any number here, fractions included; an integer matcher rejects 1.5',
      'the card screen loads a card: response $.body.data.card_status: the spec allows "FROZEN", "TERMINATED" here, which the regex ^ACTIVE$ rejects in Pact\'s verifier',
    ]);
  });

  it('turns the check into a verify report with one contract rule per interaction', async () => {
    const file = join(dir, 'report.json');
    await writeFile(
      file,
      JSON.stringify(
        userPact((interaction) => {
          interaction.request.method = 'POST';
        }),
      ),
    );
    const report = pactSpecReport(await checkPactsAgainstSpec([file]), new Date());
    expect(report).toMatchObject({ command: 'verify', summary: { passed: 0, failed: 1, skipped: 0 } });
    expect(report.rules[0]).toMatchObject({ category: 'contract', operation: 'unknown', status: 'failed' });
    expect(report.rules[0]?.failure?.reason).toContain('the spec has GET /cards/virtual/card_1, not POST');
  });

  it('refuses a file that is not a pact with a usage error', async () => {
    const file = join(dir, 'not-a-pact.json');
    await writeFile(file, '{"hello": 1}');
    await expect(checkPactsAgainstSpec([file])).rejects.toThrow(ConfigError);
  });

  it('throws a ConformanceError from assertPactsAgreeWithSpec, for use inside a test runner', async () => {
    const file = join(dir, 'assert.json');
    await writeFile(
      file,
      JSON.stringify(
        userPact((interaction) => {
          interaction.response.status = 201;
        }),
      ),
    );
    await expect(assertPactsAgreeWithSpec([PACU_PACT_DIR])).resolves.toMatchObject({
      summary: { failed: 0 },
    });
    await expect(assertPactsAgreeWithSpec([file])).rejects.toThrow(ConformanceError);
    await expect(assertPactsAgreeWithSpec([file])).rejects.toThrow(
      /the spec has no 201 response for getVirtualCard/,
    );
  });
});
