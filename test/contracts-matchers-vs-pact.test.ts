import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MatcherVerdict, matcherVerdict } from '../contracts/matcher-verdicts.ts';
import type { PactMatcher } from '../contracts/pact-file.ts';
import { schemaAt } from '../contracts/schema-at-path.ts';
import type { JSONSchema7 } from '../spec/index.ts';
import { runReferenceVerifier } from './helpers/reference-verifier.ts';

interface Case {
  readonly name: string;
  readonly matcher: PactMatcher;
  readonly schema: JSONSchema7;
  /** The pact's own example at the place. */
  readonly example: unknown;
  /** A value the spec allows, for a matcher pacu calls compatible (else its counterexample is sent). */
  readonly sends?: unknown;
  readonly compatible: boolean;
}

const str: JSONSchema7 = { type: 'string' };
const status: JSONSchema7 = { type: 'string', enum: ['ACTIVE', 'FROZEN', 'TERMINATED'] };
const CASES: Case[] = [
  {
    name: 'Rust/Oniguruma (?i) regex on an enum',
    matcher: { match: 'regex', regex: '(?i)^(active|frozen|terminated)$' },
    schema: status,
    example: 'active',
    sends: 'TERMINATED',
    compatible: true,
  },
  {
    name: 'regex that matches only part of an enum value',
    matcher: { match: 'regex', regex: 'ACTIVE|FROZEN' },
    schema: status,
    example: 'ACTIVE',
    compatible: false,
  },
  {
    name: 'regex in a syntax Pact does not compile',
    matcher: { match: 'regex', regex: '(?P<n>a)' },
    schema: str,
    example: 'a',
    compatible: false,
  },
  {
    name: 'regex on an integer (Pact matches its text)',
    matcher: { match: 'regex', regex: '^\\d+$' },
    schema: { type: 'integer' },
    example: 150,
    sends: 42,
    compatible: true,
  },
  {
    name: 'type on a string',
    matcher: { match: 'type' },
    schema: str,
    example: 'x',
    sends: 'y',
    compatible: true,
  },
  {
    name: 'type whose example is a number, on a string field',
    matcher: { match: 'type' },
    schema: str,
    example: 1,
    compatible: false,
  },
  {
    name: 'integer on a number',
    matcher: { match: 'integer' },
    schema: { type: 'number' },
    example: 1,
    compatible: false,
  },
  { name: 'integer on a string', matcher: { match: 'integer' }, schema: str, example: 1, compatible: false },
  {
    name: 'integer on an integer',
    matcher: { match: 'integer' },
    schema: { type: 'integer' },
    example: 1,
    sends: 7,
    compatible: true,
  },
  {
    name: 'decimal on a number',
    matcher: { match: 'decimal' },
    schema: { type: 'number' },
    example: 1.5,
    compatible: false,
  },
  {
    name: 'number on an integer',
    matcher: { match: 'number' },
    schema: { type: 'integer' },
    example: 1,
    sends: 3,
    compatible: true,
  },
  {
    name: 'boolean on a boolean',
    matcher: { match: 'boolean' },
    schema: { type: 'boolean' },
    example: true,
    sends: false,
    compatible: true,
  },
  { name: 'null on a string', matcher: { match: 'null' }, schema: str, example: null, compatible: false },
  {
    name: 'minType on a list',
    matcher: { match: 'type', min: 1 },
    schema: { type: 'array', items: str },
    example: ['a'],
    sends: ['b', 'c'],
    compatible: true,
  },
  {
    name: 'maxType on a list without maxItems',
    matcher: { match: 'type', max: 1 },
    schema: { type: 'array', items: str },
    example: ['a'],
    compatible: false,
  },
  {
    name: 'timestamp pattern without fractions on date-time',
    matcher: { match: 'timestamp', format: "yyyy-MM-dd'T'HH:mm:ssXXX" },
    schema: { type: 'string', format: 'date-time' },
    example: '2024-06-14T10:20:00Z',
    compatible: false,
  },
  {
    name: 'timestamp without a pattern on a UTC timestamp',
    matcher: { match: 'timestamp' },
    schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$' },
    example: '2024-06-14T10:20:00Z',
    sends: '2025-01-02T03:04:05Z',
    compatible: true,
  },
  {
    name: 'date on a date',
    matcher: { match: 'date', format: 'yyyy-MM-dd' },
    schema: { type: 'string', format: 'date' },
    example: '2024-06-14',
    sends: '2025-12-31',
    compatible: true,
  },
  {
    name: 'include on a free string',
    matcher: { match: 'include', value: 'ok' },
    schema: str,
    example: 'is ok',
    compatible: false,
  },
  {
    name: 'include on an enum whose values all include it',
    matcher: { match: 'include', value: 'ACT' },
    schema: { type: 'string', enum: ['ACTIVE', 'INACTIVE'] },
    example: 'ACTIVE',
    sends: 'INACTIVE',
    compatible: true,
  },
  {
    name: 'equality on a one-value enum',
    matcher: { match: 'equality' },
    schema: { type: 'string', enum: ['USD'] },
    example: 'USD',
    sends: 'USD',
    compatible: true,
  },
  {
    name: 'equality on a free string',
    matcher: { match: 'equality' },
    schema: str,
    example: 'x',
    compatible: false,
  },
  {
    name: 'notEmpty on a string without minLength',
    matcher: { match: 'notEmpty' },
    schema: str,
    example: 'x',
    compatible: false,
  },
  {
    name: 'notEmpty on a string with minLength',
    matcher: { match: 'notEmpty' },
    schema: { type: 'string', minLength: 1 },
    example: 'x',
    sends: 'y',
    compatible: true,
  },
  {
    name: 'semver where the spec shows a non-version',
    matcher: { match: 'semver' },
    schema: { type: 'string', enum: ['1.2.3', 'v2'] },
    example: '1.2.3',
    compatible: false,
  },
  {
    name: 'eachKey regex that rejects a key the spec names',
    matcher: { match: 'eachKey', rules: [{ match: 'regex', regex: '^[a-z]+$' }], value: { ach: 1 } },
    schema: { type: 'object', properties: { ACH: { type: 'integer' } } },
    example: { ach: 1 },
    compatible: false,
  },
  {
    name: 'contentType on a JSON field',
    matcher: { match: 'contentType', value: 'application/json' },
    schema: str,
    example: 'x',
    compatible: false,
  },
];

let server: Server;
let target: string;
let dir: string;
const served: unknown[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    const index = Number(req.url?.split('/')[2]);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ v: served[index] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'pacu-matchers-'));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const verdictOf = (item: Case): MatcherVerdict => {
  const facts = schemaAt(item.schema, []);
  if (!facts) throw new Error(`no facts for ${item.name}`);
  return matcherVerdict(item.matcher, { facts, examples: [], pactValues: [item.example] });
};

describe('matcher verdicts against the schema agree with Pact’s verifier', () => {
  it.each(CASES.map((item) => [item.name, item] as const))('%s', (_name, item) => {
    const verdict = verdictOf(item);
    expect(verdict.compatible, verdict.reason).toBe(item.compatible);
    expect(verdict.reason.length).toBeGreaterThan(20);
  });

  it('gives the true reason: a string field for an integer matcher is not about fractions', () => {
    const byName = (name: string) => verdictOf(CASES.find((item) => item.name === name) as Case).reason;
    expect(byName('integer on a string')).toBe(
      'the spec sends string here; an integer matcher rejects "text"',
    );
    expect(byName('integer on a number')).toContain('fractions included; an integer matcher rejects 1.5');
    expect(byName('null on a string')).toBe('the spec sends string here; a null matcher rejects "text"');
    expect(byName('Rust/Oniguruma (?i) regex on an enum')).toContain("Pact's verifier accepts every value");
  });

  it('each incompatible verdict names a spec-allowed value the real verifier rejects; compatible ones pass it', async () => {
    served.length = 0;
    for (const item of CASES) served.push(item.compatible ? item.sends : verdictOf(item).counterexample);
    const pact = {
      consumer: { name: 'matcher-cases' },
      provider: { name: 'any' },
      interactions: CASES.map((item, index) => ({
        type: 'Synchronous/HTTP',
        key: String(index),
        description: item.name,
        request: { method: 'GET', path: `/case/${index}` },
        response: {
          status: 200,
          body: { content: { v: item.example }, contentType: 'application/json', encoded: false },
          matchingRules: { body: { '$.v': { combine: 'AND', matchers: [item.matcher] } } },
        },
      })),
      metadata: { pactSpecification: { version: '4.0' } },
    };
    const file = join(dir, 'cases.json');
    await writeFile(file, JSON.stringify(pact));
    const reference = await runReferenceVerifier(target, [file]);
    expect(reference.map((row) => [row.description, row.passed])).toEqual(
      CASES.map((item) => [item.name, item.compatible]),
    );
  });
});
