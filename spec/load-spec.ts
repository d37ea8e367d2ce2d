import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { collectDecisions } from './decisions.ts';
import { SpecError } from './errors.ts';
import type { JSONSchema7 } from './json-schema.ts';
import {
  DECIDED_LIMITS,
  type DecidedLimits,
  OPERATION_IDS,
  OPERATION_ROUTES,
  type OperationId,
  type OperationSecurity,
  type OperationSpec,
  type ParameterSpec,
  type RequestBodySpec,
  type ResponseSpec,
  SCOPES,
  type Scope,
  type Spec,
  type WebhookEventSpec,
} from './model.ts';
import { packageFile } from './package-files.ts';
import { parseDescription, type ReadDescription, sha256Of } from './parsed-description.ts';
import { pendingOnce } from './pending-once.ts';
import { schemasCheckedByBuild, schemasNotChecked } from './schema-validator.ts';
import { yamlProblem } from './syntax-problem.ts';

/** spec/openapi.yaml: the one description everything in pacu is driven by. */
export const DEFAULT_SPEC_FILE: string = packageFile('spec/openapi.yaml');

type Node = Record<string, unknown>;

const asNode = (value: unknown): Node => (value && typeof value === 'object' ? (value as Node) : {});

function examplesOf(media: Node): Record<string, unknown> {
  const named = asNode(media.examples);
  return Object.fromEntries(Object.entries(named).map(([name, example]) => [name, asNode(example).value]));
}

function readSecurity(operation: Node, schemes: Node): OperationSecurity {
  const requirements = operation.security as Node[] | undefined;
  const first = requirements?.[0];
  if (!first) return { kind: 'none' };
  const [schemeName, scopes] = Object.entries(first)[0] ?? [];
  const scheme = asNode(schemes[schemeName ?? '']);
  if (scheme.type === 'http' && scheme.scheme === 'basic') return { kind: 'basic' };
  if (scheme.type === 'oauth2' || (scheme.type === 'http' && scheme.scheme === 'bearer')) {
    const list = (scopes as string[]) ?? [];
    const unknown = list.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
    if (unknown.length > 0)
      throw new SpecError(`unknown scope ${unknown.join(', ')} on ${String(operation.operationId)}`);
    return { kind: 'bearer', scopes: list as Scope[] };
  }
  throw new SpecError(
    `unsupported security scheme ${String(schemeName)} on ${String(operation.operationId)}`,
  );
}

function readParameters(operation: Node): ParameterSpec[] {
  return ((operation.parameters as Node[] | undefined) ?? []).map((parameter) => ({
    name: String(parameter.name),
    in: parameter.in as ParameterSpec['in'],
    required: parameter.required === true,
    description: String(parameter.description ?? ''),
    schema: asNode(parameter.schema) as JSONSchema7,
    ...(parameter.example !== undefined ? { example: parameter.example } : {}),
    ...(typeof parameter['x-pacu-decision'] === 'string' ? { decision: parameter['x-pacu-decision'] } : {}),
  }));
}

function readRequestBody(operation: Node): RequestBodySpec | undefined {
  const body = operation.requestBody as Node | undefined;
  if (!body) return undefined;
  const [mediaType, media] = Object.entries(asNode(body.content))[0] ?? [];
  if (mediaType !== 'application/json' && mediaType !== 'application/x-www-form-urlencoded') {
    throw new SpecError(
      `unsupported request media type ${String(mediaType)} on ${String(operation.operationId)}`,
    );
  }
  return {
    mediaType,
    required: body.required === true,
    schema: asNode(asNode(media).schema) as JSONSchema7,
    examples: examplesOf(asNode(media)),
  };
}

function readResponses(operation: Node): Map<number, ResponseSpec> {
  const responses = new Map<number, ResponseSpec>();
  for (const [status, raw] of Object.entries(asNode(operation.responses))) {
    const response = asNode(raw);
    const media = asNode(asNode(response.content)['application/json']);
    responses.set(Number(status), {
      status: Number(status),
      description: String(response.description ?? ''),
      schema: media.schema ? (media.schema as JSONSchema7) : undefined,
      examples: examplesOf(media),
      ...(typeof response['x-pacu-decision'] === 'string' ? { decision: response['x-pacu-decision'] } : {}),
    });
  }
  return responses;
}

function readWebhooks(document: Node): WebhookEventSpec[] {
  return Object.entries(asNode(document.webhooks)).map(([type, item]) => {
    const post = asNode(asNode(item).post);
    const media = asNode(asNode(asNode(post.requestBody).content)['application/json']);
    return {
      type,
      summary: String(post.summary ?? ''),
      schema: asNode(media.schema) as JSONSchema7,
      examples: examplesOf(media),
    };
  });
}

function readTokenLifetime(document: Node): number {
  const example = asNode(asNode(asNode(asNode(document.components).examples).TokenIssued).value);
  const seconds = asNode(example.data).expires_in_seconds;
  if (typeof seconds !== 'number')
    throw new SpecError('the TokenIssued example must carry expires_in_seconds');
  return seconds;
}

function readLimits(document: Node): DecidedLimits {
  const limits = asNode(document['x-pacu-limits']);
  const { maxBodyBytes, maxJsonDepth } = limits;
  if (maxBodyBytes !== DECIDED_LIMITS.maxBodyBytes || maxJsonDepth !== DECIDED_LIMITS.maxJsonDepth)
    throw new SpecError(
      `x-pacu-limits must be ${JSON.stringify(DECIDED_LIMITS)}, as spec/model.ts's DECIDED_LIMITS says`,
    );
  return { maxBodyBytes: maxBodyBytes as number, maxJsonDepth: maxJsonDepth as number };
}

function readScopes(schemes: Node): Scope[] {
  const flows = asNode(asNode(schemes.bearerAuth).flows);
  const names = Object.keys(asNode(asNode(flows.clientCredentials).scopes));
  if (names.join(',') !== SCOPES.join(','))
    throw new SpecError(`bearerAuth lists scopes ${names.join(', ')}; pacu knows ${SCOPES.join(', ')}`);
  return [...SCOPES];
}

/**
 * Load and dereference the OpenAPI description. The only code in pacu that reads the YAML:
 * mock, suites and contracts all take what they need from the returned {@link Spec}.
 *
 * @example
 * const spec = await loadSpec();
 * spec.operation('usdTransfer').requestBody?.schema;
 */
export function loadSpec(file: string = DEFAULT_SPEC_FILE): Promise<Spec> {
  return once(loaded, file, async (absolute) => interfaceSpec(await readSpec(absolute), absolute));
}

/**
 * Load an OpenAPI description in pacu's form whose operations may differ from the interface's nine
 * (a spec pacu check reads to judge a target; the mock and the typed client need {@link loadSpec}).
 */
export function loadOpenApi(file: string): Promise<Spec<string>> {
  return once(loadedAny, file, readSpec);
}

/** Once per file and process: `pacu check` starts a mock and runs the suites on one Spec, loaded once. */
function once<T>(
  cache: Map<string, Promise<T>>,
  file: string,
  read: (absolute: string) => Promise<T>,
): Promise<T> {
  const absolute = path.resolve(file);
  return pendingOnce(cache, absolute, () => read(absolute));
}

const loaded = new Map<string, Promise<Spec>>();
const loadedAny = new Map<string, Promise<Spec<string>>>();

const isInterfaceOperation = (id: string): id is OperationId =>
  (OPERATION_IDS as readonly string[]).includes(id);

/** The spec as the interface's nine operations, exactly, each at its route: or a SpecError. */
function interfaceSpec(spec: Spec<string>, absolute: string): Spec {
  const unexpected = spec.operations.find((operation) => !isInterfaceOperation(operation.id));
  if (unexpected) throw new SpecError(`unexpected operationId ${unexpected.id} in ${absolute}`);
  const operations = spec.operations as readonly OperationSpec[];
  const moved = operations.filter(
    (operation) =>
      OPERATION_ROUTES[operation.id].path !== operation.path ||
      OPERATION_ROUTES[operation.id].method !== operation.method,
  );
  if (moved.length > 0)
    throw new SpecError(
      `${absolute}: ${moved.map((o) => `${o.id} at ${o.method} ${o.path}`).join(', ')} disagrees with OPERATION_ROUTES`,
    );
  const missing = OPERATION_IDS.filter((id) => !operations.some((operation) => operation.id === id));
  if (missing.length > 0) throw new SpecError(`${absolute} lacks operations ${missing.join(', ')}`);
  return spec as Spec;
}

/**
 * Every `$ref` of `raw` resolved, on a copy. The build has done this for the description it ships
 * (spec/parsed-description.ts); the resolver loads only for another one, or one being edited.
 */
export async function dereference(raw: Node): Promise<Node> {
  const { default: $RefParser } = await import('@apidevtools/json-schema-ref-parser');
  return asNode(await $RefParser.dereference(structuredClone(raw) as never, { mutateInputSchema: true }));
}

async function readSpec(absolute: string): Promise<Spec<string>> {
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (cause) {
    throw new SpecError(`pacu: cannot read the OpenAPI description ${absolute}`, { cause });
  }
  const digest = sha256Of(text);
  let read: ReadDescription;
  try {
    read = await parseDescription(absolute, text, digest);
  } catch (cause) {
    throw new SpecError(`pacu: ${absolute} is not an OpenAPI description: ${yamlProblem(cause)}`, { cause });
  }
  // Schemas the build checked against the meta-schema are not checked again at each start.
  if (read.schemasChecked) schemasCheckedByBuild();
  else schemasNotChecked();
  const raw = asNode(read.document);
  if (typeof raw.openapi !== 'string' || !raw.openapi.startsWith('3.')) {
    throw new SpecError(`pacu: ${absolute} is not an OpenAPI 3 description`);
  }
  const dereferenced = asNode(read.dereferenced ?? (await dereference(raw)));
  const schemes = asNode(asNode(dereferenced.components).securitySchemes);
  const schemas = asNode(asNode(dereferenced.components).schemas);

  const operations: OperationSpec<string>[] = [];
  for (const [pathTemplate, item] of Object.entries(asNode(dereferenced.paths))) {
    for (const method of ['get', 'post'] as const) {
      const operation = asNode(asNode(item)[method]);
      if (!operation.operationId) continue;
      operations.push({
        id: String(operation.operationId),
        method,
        path: pathTemplate,
        summary: String(operation.summary ?? ''),
        description: String(operation.description ?? ''),
        security: readSecurity(operation, schemes),
        bearerDocumented: operation['x-pacu-bearer-documented'] === true,
        parameters: readParameters(operation),
        requestBody: readRequestBody(operation),
        responses: readResponses(operation),
        ...(typeof operation['x-pacu-decision'] === 'string'
          ? { decision: operation['x-pacu-decision'] }
          : {}),
      });
    }
  }
  const byId = new Map(operations.map((operation) => [operation.id, operation]));
  const serverUrl = String(asNode((raw.servers as Node[] | undefined)?.[0]).url ?? '');

  return {
    file: absolute,
    title: String(asNode(raw.info).title),
    version: String(asNode(raw.info).version),
    basePath: new URL(serverUrl).pathname.replace(/\/$/, ''),
    tokenLifetimeSeconds: readTokenLifetime(raw),
    limits: readLimits(raw),
    scopes: readScopes(schemes),
    operations,
    operation(id: string): OperationSpec<string> {
      const found = byId.get(id);
      if (!found) throw new SpecError(`no operation ${id}`);
      return found;
    },
    webhooks: readWebhooks(dereferenced),
    schema(name: string): JSONSchema7 {
      const found = schemas[name];
      if (!found) throw new SpecError(`no schema ${name} in ${absolute}`);
      return found as JSONSchema7;
    },
    decisions: collectDecisions(raw),
    document: raw,
    digest,
  };
}
