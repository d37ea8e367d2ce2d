import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { validateInput } from '@stoplight/prism-http/dist/validator/index.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_FILE, loadSpec } from './index.ts';

const spec = await loadSpec();
const prismOperations = await getHttpOperationsFromSpec(DEFAULT_SPEC_FILE);

function encodeBody(mediaType: string, value: Record<string, unknown>): unknown {
  return mediaType === 'application/json'
    ? value
    : new URLSearchParams(value as Record<string, string>).toString();
}

function prismErrors(operationId: string, mediaType: string, body: Record<string, unknown>) {
  const resource = prismOperations.find((operation) => operation.iid === operationId);
  if (!resource) throw new Error(`Prism did not load ${operationId}`);
  const encoded = encodeBody(mediaType, body);
  const result = validateInput({
    resource,
    element: {
      method: resource.method as 'post',
      url: { path: `${spec.basePath}${resource.path}` },
      headers: {
        'content-type': mediaType,
        'content-length': String(
          Buffer.byteLength(typeof encoded === 'string' ? encoded : JSON.stringify(encoded)),
        ),
      },
      body: encoded,
    },
  });
  return result._tag === 'Left' ? result.left : [];
}

const postOperations = spec.operations.filter((operation) => operation.method === 'post');

describe('spec/openapi.yaml in @stoplight/prism-http', () => {
  it('loads all nine operations with their operationIds', () => {
    expect(prismOperations.map((operation) => operation.iid).sort()).toEqual(
      spec.operations.map((operation) => operation.id).sort(),
    );
  });

  it.each(postOperations.map((operation) => [operation.id, operation] as const))(
    '%s: Prism accepts the example request and rejects one without a required field',
    (_id, operation) => {
      const body = operation.requestBody;
      if (!body) throw new Error('a POST operation without a body');
      const example = Object.values(body.examples)[0] as Record<string, unknown>;
      expect(prismErrors(operation.id, body.mediaType, example)).toEqual([]);

      const required =
        body.schema.required ?? body.schema.allOf?.flatMap((member) => member.required ?? []) ?? [];
      expect(required.length).toBeGreaterThan(0);
      for (const field of required) {
        const { [field]: _dropped, ...withoutField } = example;
        const errors = prismErrors(operation.id, body.mediaType, withoutField);
        expect(errors.map((error) => error.message).join('; '), `without ${field}`).toContain(field);
      }
    },
  );
});
