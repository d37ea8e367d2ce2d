import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { type RunningMock, startMock } from '../mock/index.ts';
import { DEFAULT_SPEC_FILE, loadOpenApi, type Spec } from '../spec/index.ts';
import { operationsOf, RULES, resolveTargetConfig, runChecks } from '../suites/index.ts';
import { TEST_SEED } from './providers/run-against.ts';

// Rules read the operation, not tables of their own. A copy of spec/openapi.yaml with a
// tenth operation (a JSON POST with an id in its path and one in its body) and an eleventh (a GET
// with a path id) gets every rule that applies to them, with no edit in suites/.

const shared = (name: string) => ({ $ref: `#/components/responses/${name}` });
const card = { $ref: '#/components/parameters/CardId' };
const cardAnswer = {
  description: 'The card.',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/VirtualCardResponse' } } },
};

async function specWithMoreOperations(): Promise<Spec<string>> {
  const document = parse(await readFile(DEFAULT_SPEC_FILE, 'utf8'), { maxAliasCount: -1 });
  document.paths['/cards/virtual/{card_id}/freeze'] = {
    post: {
      operationId: 'freezeCard',
      summary: 'Freeze a virtual card for one of the merchant customers',
      security: [{ bearerAuth: ['card'] }],
      parameters: [card],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['user_id', 'reason'],
              properties: {
                user_id: { type: 'string', description: "Identifier of the merchant's customer." },
                reason: { type: 'string', enum: ['lost', 'stolen'] },
              },
            },
          },
        },
      },
      responses: {
        '200': cardAnswer,
        '400': shared('BadRequest'),
        '401': shared('Unauthorized'),
        '403': shared('Forbidden'),
        '413': shared('PayloadTooLarge'),
      },
    },
  };
  document.paths['/cards/virtual/{card_id}/limits'] = {
    get: {
      operationId: 'getCardLimits',
      summary: 'Read the limits of a virtual card',
      security: [{ bearerAuth: ['card'] }],
      parameters: [card],
      responses: {
        '200': cardAnswer,
        '400': shared('BadRequest'),
        '401': shared('Unauthorized'),
        '403': shared('Forbidden'),
      },
    },
  };
  const dir = await mkdtemp(path.join(tmpdir(), 'pacu-tenth-'));
  const file = path.join(dir, 'openapi.yaml');
  await writeFile(file, stringify(document, { aliasDuplicateObjects: false }));
  return loadOpenApi(file);
}

const rulesOn = (spec: Spec<string>, operation: string): string[] =>
  RULES.filter((rule) => operationsOf(rule, spec).includes(operation)).map((rule) => rule.id);

let spec: Spec<string>;
let mock: RunningMock;
beforeAll(async () => {
  spec = await specWithMoreOperations();
  mock = await startMock({ clock: 'manual', log: () => {} });
});
afterAll(() => mock.close());

describe('a spec with a tenth and an eleventh operation', () => {
  it('loads with its eleven operations', () => {
    expect(spec.operations.map((operation) => operation.id)).toEqual(
      expect.arrayContaining(['freezeCard', 'getCardLimits']),
    );
    expect(spec.operations).toHaveLength(11);
  });

  it('the JSON POST gets every rule for JSON bodies, bearer tokens, ids and echoes', () => {
    expect(rulesOn(spec, 'freezeCard')).toEqual([
      'envelope.content-type',
      'envelope.success-shape',
      'envelope.error-shape',
      'auth.granted-scope',
      'auth.bearer-required',
      'auth.scope-enforced',
      'errors.invalid-body',
      'errors.malformed-request',
      'errors.unknown-id',
      'errors.limits',
      'positive.accepted',
      'positive.echoes-request',
    ]);
  });

  it('the GET with a path id gets every rule for bearer reads and ids', () => {
    expect(rulesOn(spec, 'getCardLimits')).toEqual([
      'envelope.content-type',
      'envelope.success-shape',
      'envelope.error-shape',
      'auth.granted-scope',
      'auth.bearer-required',
      'auth.scope-enforced',
      'errors.unknown-id',
      'positive.accepted',
      'positive.echoes-request',
    ]);
  });

  it('a run checks them: every cell of the new operations ran, ids read from the spec', async () => {
    const report = await runChecks({
      target: resolveTargetConfig({
        target: mock.url,
        clientId: mock.demoClient.clientId,
        clientSecret: mock.demoClient.clientSecret,
        controlUrl: mock.origin,
      }),
      spec,
      profile: 'strict',
      seed: TEST_SEED,
      runs: 2,
      rules: ['envelope', 'auth', 'errors', 'positive'],
    });
    for (const operation of ['freezeCard', 'getCardLimits']) {
      const cells = report.rules.filter((rule) => rule.operation === operation);
      expect(cells.map((cell) => cell.id).sort()).toEqual(rulesOn(spec, operation).sort());
      // The mock does not serve them: what matters here is that each rule ran, with the ids it needs.
      expect(cells.filter((cell) => cell.status === 'skipped')).toEqual([]);
    }
  });
});
