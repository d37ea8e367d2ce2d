import { echoOf, type JSONSchema7, type OperationSpec } from '../../spec/index.ts';
import { asNode, isDecision, type Node } from './description.ts';
import type { Operation } from './operation.ts';
import { collectFields } from './schema-facts.ts';

/**
 * Record fields the description itself requires because the answer echoes its request: each
 * required request field the record documents, with the description's words that say so (the
 * field's row, and the sentence that states the echo).
 */
export type EchoRequirement = ReadonlyMap<string, readonly string[]>;

const jsonSchema = (content: unknown): JSONSchema7 | undefined => {
  const [, media] = Object.entries(asNode(content))[0] ?? [];
  const schema = asNode(media).schema;
  return schema === undefined ? undefined : (asNode(schema) as JSONSchema7);
};

/** The diff's operation as spec/'s model, as far as `echoOf` reads it (decision 140: one echo fact). */
function asOperationSpec(operation: Operation): OperationSpec<string> {
  const { node, ref } = operation;
  const body = node.requestBody === undefined ? undefined : asNode(node.requestBody);
  const requestSchema = body ? jsonSchema(body.content) : undefined;
  const success = asNode(asNode(node.responses)['200']);
  return {
    id: ref.id ?? `${ref.method} ${ref.path}`,
    method: ref.method.toLowerCase() as OperationSpec['method'],
    path: ref.path,
    summary: String(node.summary ?? ''),
    description: String(node.description ?? ''),
    security: { kind: 'none' },
    bearerDocumented: false,
    parameters: operation.parameters.map((parameter) => ({
      name: String(parameter.name),
      in: parameter.in as 'path',
      required: parameter.required === true,
      description: String(parameter.description ?? ''),
      schema: asNode(parameter.schema) as JSONSchema7,
    })),
    requestBody: requestSchema
      ? {
          mediaType: 'application/json',
          required: body?.required === true,
          schema: requestSchema,
          examples: {},
        }
      : undefined,
    responses: new Map([
      [200, { status: 200, description: '', schema: jsonSchema(success.content), examples: {} }],
    ]),
  };
}

/** The sentence of an operation's description that states its echo. */
function echoSentence(description: string): string | undefined {
  return description
    .replace(/\s+/g, ' ')
    .split(/(?<=\.)\s+/)
    .find((sentence) => /\bechoe[sd]\b/i.test(sentence))
    ?.trim();
}

/**
 * What the description requires of an operation's record by its stated echo of the request (not of
 * a grant): undefined when no sentence states one. A field only pacu's decisions require in the
 * request is not required by the description, so neither is its echo.
 */
export function echoRequirement(operation: Operation): EchoRequirement | undefined {
  const spec = asOperationSpec(operation);
  const echo = echoOf(spec);
  const sentence = echoSentence(spec.description);
  if (!echo?.stated || echo.of !== 'request' || !sentence) return undefined;
  const schema = spec.requestBody?.schema;
  const root = schema ? collectFields(schema, '$').get('$') : undefined;
  const properties = asNode(schema?.properties);
  const required = new Map<string, string>();
  for (const name of root?.facts.description.required ?? []) {
    const row = asNode(properties[name])['x-pacu-source'];
    required.set(name, typeof row === 'string' ? row : `\`${name}\` is a required field of the request`);
  }
  for (const parameter of operation.parameters as Node[])
    if (parameter.in === 'path' && !isDecision(parameter))
      required.set(String(parameter.name), `the path parameter \`${String(parameter.name)}\` is required`);
  return new Map(
    echo.fields.flatMap((name) => {
      const row = required.get(name);
      return row ? [[name, [row, sentence]] as const] : [];
    }),
  );
}
