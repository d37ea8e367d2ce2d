import { describe, expect, it } from 'vitest';
import { compileSchema, type JSONSchema7, loadSpec } from './index.ts';

const spec = await loadSpec();

interface ExampleCase {
  readonly name: string;
  readonly schema: JSONSchema7;
  readonly value: unknown;
}

function allExamples(): ExampleCase[] {
  const cases: ExampleCase[] = [];
  for (const operation of spec.operations) {
    for (const parameter of operation.parameters) {
      if (parameter.example !== undefined) {
        cases.push({
          name: `${operation.id} parameter ${parameter.name}`,
          schema: parameter.schema,
          value: parameter.example,
        });
      }
    }
    for (const [name, value] of Object.entries(operation.requestBody?.examples ?? {})) {
      cases.push({
        name: `${operation.id} request ${name}`,
        schema: operation.requestBody?.schema ?? {},
        value,
      });
    }
    for (const response of operation.responses.values()) {
      for (const [name, value] of Object.entries(response.examples)) {
        cases.push({
          name: `${operation.id} ${response.status} ${name}`,
          schema: response.schema ?? {},
          value,
        });
      }
    }
  }
  for (const webhook of spec.webhooks) {
    for (const [name, value] of Object.entries(webhook.examples)) {
      cases.push({ name: `webhook ${webhook.type} ${name}`, schema: webhook.schema, value });
    }
  }
  return cases;
}

describe('examples in spec/openapi.yaml', () => {
  const cases = allExamples();

  it('cover every request body, every 200 and every 400 response and every webhook', () => {
    for (const operation of spec.operations) {
      if (operation.requestBody)
        expect(Object.keys(operation.requestBody.examples), operation.id).not.toEqual([]);
      expect(Object.keys(operation.responses.get(200)?.examples ?? {}), `${operation.id} 200`).not.toEqual(
        [],
      );
      expect(Object.keys(operation.responses.get(400)?.examples ?? {}), `${operation.id} 400`).not.toEqual(
        [],
      );
    }
    for (const webhook of spec.webhooks) expect(Object.keys(webhook.examples), webhook.type).not.toEqual([]);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s validates against its schema', (_name, example) => {
    expect(compileSchema(example.schema)(example.value)).toEqual([]);
  });

  it('are checked by a validator that does reject a broken record', () => {
    const created = spec.operation('usdTransfer').responses.get(200);
    const example = structuredClone(created?.examples.created) as { data: Record<string, unknown> };
    example.data.transaction_date = '14/06/2024';
    delete example.data.transaction_id;
    const issues = compileSchema(created?.schema ?? {})(example);
    expect(issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['/data', '/data/transaction_date']),
    );
  });
});
