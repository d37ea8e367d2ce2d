import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compileSchema, DEFAULT_SPEC_FILE, echoOf, loadSpec, schemaForProfile } from '../spec/index.ts';
import { CHECKS } from './checks.ts';
import { type Doc, ECHO_CASES, RULE_CASES } from './diff-rules.case.ts';
import { checkCounts, diffSpecs, usageFromCoverage, usageFromPacts } from './index.ts';

const base: Doc = parse(readFileSync(DEFAULT_SPEC_FILE, 'utf8'), { maxAliasCount: -1 });
const OLD = { label: 'old', document: base };
const edited = (edit: (doc: Doc) => void): Doc => {
  const copy = structuredClone(base);
  edit(copy);
  return copy;
};

describe('one edit per rule: each classified as its check says', () => {
  it.each(RULE_CASES.map((c) => [c.check, c] as const))('%s', async (_check, rule) => {
    const before = rule.before ? { label: 'old', document: edited(rule.before) } : OLD;
    const report = await diffSpecs(before, { label: 'new', document: edited(rule.after) });
    const found = report.changes.filter((change) => change.check === rule.check);
    expect(found.map((change) => change.check)).toContain(rule.check);
    for (const change of found) {
      expect(change.severity).toBe(CHECKS[rule.check].severity);
      expect(change.message.length).toBeGreaterThan(20);
      expect(change.path).toMatch(/^\$/);
    }
    expect(found.map((change) => change.origin)).toContain(rule.origin);
  });

  it('has a case for every check', () => {
    expect(new Set(RULE_CASES.map((c) => c.check))).toEqual(new Set(Object.keys(CHECKS)));
  });

  it('classifies as oasdiff does, or says why not in decision 100', () => {
    const record = readFileSync(
      new URL('../docs/decisions/100-diff-judges-like-oasdiff-except-payments.md', import.meta.url),
      'utf8',
    );
    const level = { ERR: 'breaking', WARN: 'risky', INFO: 'safe' } as Record<string, string>;
    const differing = Object.entries(CHECKS)
      .filter(
        ([, entry]) =>
          entry.oasdiff === null || level[entry.oasdiff.split(' ').at(-1) ?? ''] !== entry.severity,
      )
      .map(([id]) => id);
    const unexplained = differing.filter(
      (id) =>
        !record.includes(`\`${id}\``) &&
        !record.includes(`\`${id.replace(/-(added|removed|changed|lowered|raised)$/, '-*')}\``),
    );
    expect(unexplained).toEqual([]);
  });
});

describe('the echo of a required request field is required by the description', () => {
  it.each(ECHO_CASES.map((c) => [c.field, c] as const))(
    'removing %s from the USD transfer record is breaking under documented, citing both sentences',
    async (field, echo) => {
      const report = await diffSpecs(OLD, { label: 'new', document: edited(echo.after) });
      const removal = report.changes.filter(
        (c) => c.field === `$.data.${field}` && c.operation?.kind === 'operation',
      );
      expect(removal.map(({ check, origin }) => ({ check, origin }))).toEqual([
        { check: 'response-required-property-removed', origin: 'description' },
      ]);
      expect(report.failed).toBe(true);
      const cites = removal[0]?.cites ?? [];
      expect(cites).toContain(
        'The response echoes the request fields and adds transaction_date, transaction_id and transaction_status.',
      );
      expect(cites.find((line) => line.startsWith(`| ${field} |`))).toMatch(/\| yes/);
    },
  );

  it("has a case for every required request field an operation's stated echo repeats", async () => {
    const spec = await loadSpec();
    const echoed = spec.operations.flatMap((operation) => {
      const echo = echoOf(operation);
      const required = new Set(operation.requestBody?.schema.required ?? []);
      return echo?.stated && echo.of === 'request'
        ? echo.fields.filter((name) => required.has(name)).map((name) => `${operation.id} ${name}`)
        : [];
    });
    expect(ECHO_CASES.map((c) => `${c.operation} ${c.field}`).sort()).toEqual(echoed.sort());
  });
});

describe('no change where nothing changed', () => {
  it('identical descriptions', async () => {
    const report = await diffSpecs(DEFAULT_SPEC_FILE, DEFAULT_SPEC_FILE);
    expect(report.changes).toEqual([]);
    expect(report.failed).toBe(false);
  });

  it('keys in another order, at every level', async () => {
    const reverse = (node: unknown): unknown =>
      Array.isArray(node)
        ? node.map(reverse)
        : node && typeof node === 'object'
          ? Object.fromEntries(
              Object.entries(node)
                .reverse()
                .map(([k, v]) => [k, reverse(v)]),
            )
          : node;
    const report = await diffSpecs(OLD, { label: 'reordered', document: reverse(base) });
    expect(report.changes).toEqual([]);
  });

  it('every $ref inlined', async () => {
    const inlined = await $RefParser.dereference(structuredClone(base));
    const report = await diffSpecs(OLD, { label: 'inlined', document: structuredClone(inlined) });
    expect(report.changes).toEqual([]);
  });

  it('the same description as JSON', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pacu-diff-'));
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(base));
    const report = await diffSpecs(DEFAULT_SPEC_FILE, file);
    expect(report.changes).toEqual([]);
  });
});

describe('payment-aware sentences and the gate', () => {
  it('says what a removed response field breaks', async () => {
    const report = await diffSpecs(OLD, {
      label: 'new',
      document: edited((d) => {
        delete d.components.schemas.UsdTransfer.properties.transaction_id;
      }),
    });
    const change = report.changes.find((c) => c.check === 'response-required-property-removed');
    expect(change?.message).toBe(
      'the 200 response of usdTransfer no longer carries `data.transaction_id`: clients that read it break',
    );
    expect(change?.operation).toEqual({
      kind: 'operation',
      id: 'usdTransfer',
      method: 'POST',
      path: '/payments/usd/direct',
    });
  });

  it('tells a removed field with one new look-alike sibling as a likely rename', async () => {
    const report = await diffSpecs(
      DEFAULT_SPEC_FILE,
      new URL('../docs/examples/openapi-next.yaml', import.meta.url).pathname,
    );
    const change = report.changes.find(
      (c) => c.check === 'response-required-property-removed' && c.operation?.kind === 'operation',
    );
    expect(change?.message).toBe(
      'the 200 response of usdTransfer no longer carries `data.transaction_id`: clients that read it break (apparently renamed `data.payment_id`)',
    );
    expect(change?.after).toBe('payment_id');
  });

  it("a described field only a decision requires is optional as documented: its removal is risky, its required pacu's", async () => {
    // The card record's table gives card_brand a type, not its presence (decision: record fields).
    const next = {
      label: 'new',
      document: edited((d) => {
        const card = d.components.schemas.VirtualCard;
        delete card.properties.card_brand;
        for (const member of card.allOf ?? [])
          if (member.required) member.required = member.required.filter((n: string) => n !== 'card_brand');
      }),
    };
    const removal = (report: Awaited<ReturnType<typeof diffSpecs>>) =>
      report.changes
        .filter((c) => c.field === '$.data.card_brand')
        .map(({ check, severity, origin }) => ({ check, severity, origin }));
    const documented = await diffSpecs(OLD, next);
    expect(removal(documented)).toEqual([
      { check: 'response-optional-property-removed', severity: 'risky', origin: 'description' },
      { check: 'response-required-property-removed', severity: 'breaking', origin: 'decision' },
    ]);
    expect(documented.failed).toBe(false);
    expect((await diffSpecs(OLD, next, { failOn: 'risky' })).failed).toBe(true);
    expect((await diffSpecs(OLD, next, { profile: 'strict' })).failed).toBe(true);
    // The same field under the documented view of the spec: a card without it is a card.
    const spec = await loadSpec();
    const documentedCard = compileSchema(schemaForProfile(spec.schema('VirtualCard'), 'documented'));
    const strictCard = compileSchema(schemaForProfile(spec.schema('VirtualCard'), 'strict'));
    const card = {
      card_id: 'card_1',
      card_name: 'Travel',
      card_type: 'VIRTUAL',
      card_status: 'ACTIVE',
      card_balance: 120.5,
      currency: 'USD',
      cvv: '123',
      expiration: '12/29',
      first_six: '411111',
      last_four: '1111',
    };
    expect(strictCard({ ...card, card_brand: 'VISA' })).toEqual([]);
    expect(documentedCard(card)).toEqual([]);
    expect(strictCard(card)).not.toEqual([]);
  });

  it('a new request field only a decision requires breaks the strict profile only', async () => {
    const next = {
      label: 'new',
      document: edited((d) => {
        const request = d.components.schemas.AccountCreationRequest;
        request.properties.nickname = { type: 'string' };
        request.allOf = [
          ...(request.allOf ?? []),
          { 'x-pacu-decision': 'pacu asks for a nickname.', required: ['nickname'] },
        ];
      }),
    };
    const added = (await diffSpecs(OLD, next)).changes
      .filter((c) => c.field === '$.nickname')
      .map(({ check, origin }) => ({ check, origin }));
    expect(added).toEqual([
      { check: 'new-optional-request-property', origin: 'description' },
      { check: 'new-required-request-property', origin: 'decision' },
    ]);
    expect((await diffSpecs(OLD, next)).failed).toBe(false);
    expect((await diffSpecs(OLD, next, { profile: 'strict' })).failed).toBe(true);
  });

  it("reports pacu's decisions but lets them fail only under --profile strict", async () => {
    const next = { label: 'new', document: edited((d) => delete d.webhooks['p2p.validated']) };
    expect((await diffSpecs(OLD, next)).failed).toBe(false);
    expect((await diffSpecs(OLD, next, { profile: 'strict' })).failed).toBe(true);
  });

  it('--fail-on used: a breaking change no consumer uses is reported but does not fail', async () => {
    const next = {
      label: 'new',
      document: edited((d) => {
        const record = d.components.schemas.UsdTransfer;
        delete record.properties.transaction_id;
        for (const member of record.allOf ?? [])
          if (member.required)
            member.required = member.required.filter((n: string) => n !== 'transaction_id');
      }),
    };
    const listing = usageFromCoverage(
      { operations: [{ operationId: 'listUsers', statuses: { 200: 3 } }], events: [] },
      'traffic',
    );
    const quiet = await diffSpecs(OLD, next, { failOn: 'used', usage: listing });
    expect(quiet.summary.breaking).toBeGreaterThan(0);
    expect(quiet.failed).toBe(false);
    const reader = usageFromPacts([
      {
        consumer: 'merchant-payments',
        description: 'a USD transfer by ACH',
        request: { method: 'POST', path: '/payments/usd/direct', body: { reference: 'r' } },
        response: { status: 200, body: { data: { transaction_id: 'txn_1' } } },
      },
    ]);
    const loud = await diffSpecs(OLD, next, { failOn: 'used', usage: reader });
    expect(loud.failed).toBe(true);
    const change = loud.changes.find(
      (c) => c.check === 'response-required-property-removed' && c.operation?.kind === 'operation',
    );
    expect(change?.usedBy).toEqual([
      { source: 'pact', consumer: 'merchant-payments', detail: 'a USD transfer by ACH' },
    ]);
  });

  it('--fail-on used without consumers is a usage error, not a pass', async () => {
    await expect(diffSpecs(OLD, OLD, { failOn: 'used' })).rejects.toThrow(/needs consumers/);
  });

  it('counts its checks by area and severity, as the diff guide and decision 100 say', () => {
    const counts = checkCounts();
    expect(counts.total).toBe(Object.keys(CHECKS).length);
    expect(Object.values(counts.bySeverity).reduce((a, b) => a + b, 0)).toBe(counts.total);
    const { breaking, risky, safe } = counts.bySeverity;
    const guide = readFileSync(new URL('../docs/guides/diff-gate.md', import.meta.url), 'utf8');
    expect(guide).toContain(
      `**${counts.total} checks** (${breaking} breaking, ${risky} risky, ${safe} safe)`,
    );
    const record = readFileSync(
      new URL('../docs/decisions/100-diff-judges-like-oasdiff-except-payments.md', import.meta.url),
      'utf8',
    );
    expect(record).toContain(`pacu's ${counts.total} checks`);
  });
});

describe('property: additions a client never has to know about are safe', () => {
  const field = fc.record({
    name: fc.stringMatching(/^[a-z][a-z_]{0,8}$/).map((name) => `gen_${name}`),
    schema: fc.constantFrom<Doc>(
      { type: 'string' },
      { type: 'integer', minimum: 0 },
      { type: 'array', items: { type: 'string' } },
      { type: 'object', properties: { inner: { type: 'boolean' } }, required: ['inner'] },
      { type: 'string', enum: ['A', 'B'] },
    ),
  });
  const edit = fc.oneof(
    fc.record({ kind: fc.constant('field' as const), operation: fc.nat(20), field }),
    fc.record({
      kind: fc.constant('operation' as const),
      segment: fc.stringMatching(/^[a-z]{1,8}$/),
      method: fc.constantFrom('get', 'post', 'put', 'delete'),
    }),
  );
  const operations = Object.values(base.paths).flatMap((item) => Object.values(item as Doc)) as Doc[];

  it('any mix of new optional response fields and new operations gives only safe changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 4 }), async (edits) => {
        const document = edited((d) => {
          const ops = Object.values(d.paths).flatMap((item) => Object.values(item as Doc)) as Doc[];
          for (const e of edits) {
            if (e.kind === 'operation') {
              d.paths[`/generated/${e.segment}`] ??= {};
              d.paths[`/generated/${e.segment}`][e.method] = { responses: { 200: { description: 'ok' } } };
              continue;
            }
            const response =
              ops[e.operation % operations.length].responses['200'].content['application/json'];
            const addition = {
              type: 'object',
              properties: { data: { type: 'object', properties: { [e.field.name]: e.field.schema } } },
            };
            response.schema = { allOf: [response.schema, addition] };
          }
        });
        const report = await diffSpecs(OLD, { label: 'generated', document });
        expect(report.changes.filter((c) => c.severity !== 'safe')).toEqual([]);
        expect(report.changes.length).toBeGreaterThan(0);
      }),
      { seed: 20_2026, numRuns: 25 },
    );
  });
});
