import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConfigError, jsonProblem } from '../spec/index.ts';

/** One Pact matcher as the pact file spells it, e.g. `{ match: 'regex', regex: '^[0-9]+$' }`. */
export interface PactMatcher {
  readonly match: string;
  readonly regex?: string;
  readonly min?: number;
  readonly max?: number;
  readonly [key: string]: unknown;
}

/** Matching rules of one part of a request or response, keyed by JSON path (`$.data.items[*].email`). */
export type PactRules = ReadonlyMap<string, readonly PactMatcher[]>;

export interface PactMessage {
  /** Header names in lower case, each with its values. */
  readonly headers: Readonly<Record<string, readonly string[]>>;
  /** The body: parsed JSON for a JSON body, the text otherwise; undefined when there is none. */
  readonly body: unknown;
  readonly contentType?: string;
  readonly bodyRules: PactRules;
}

export interface PactRequest extends PactMessage {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, readonly string[]>>;
}

export interface PactResponse extends PactMessage {
  readonly status: number;
  /** V4 matchers on the status (`statusCode`). */
  readonly statusRules: readonly PactMatcher[];
}

/** An HTTP interaction of a pact file (V2, V3 or V4), in plain data. */
export interface PactInteraction {
  readonly file: string;
  readonly consumer: string;
  readonly provider: string;
  readonly description: string;
  readonly providerStates: ReadonlyArray<{ readonly name: string; readonly params: Record<string, unknown> }>;
  readonly request: PactRequest;
  readonly response: PactResponse;
  /** The pact specification version of its file (2, 3 or 4). */
  readonly specVersion: number;
  /** Its JSON as the file holds it, and the file's other keys: what a copy for the verifier is made of. */
  readonly source: { readonly interaction: Readonly<Json>; readonly pact: Readonly<Json> };
}

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};

function lowerCaseHeaders(raw: unknown): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(asObject(raw))) {
    const values = Array.isArray(value) ? value.map(String) : String(value).split(/,\s*/);
    headers[name.toLowerCase()] = [...new Set([...(headers[name.toLowerCase()] ?? []), ...values])];
  }
  return headers;
}

function parseQuery(raw: unknown): Record<string, string[]> {
  if (typeof raw === 'string') {
    const query: Record<string, string[]> = {};
    for (const [name, value] of new URLSearchParams(raw)) query[name] = [...(query[name] ?? []), value];
    return query;
  }
  return Object.fromEntries(
    Object.entries(asObject(raw)).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.map(String) : [String(value)],
    ]),
  );
}

/** V3/V4 rules are `{ path: { matchers } }`; V2 rules are flat, `{ "$.body.x": { match } }`. */
function parseBodyRules(raw: unknown, version: number): PactRules {
  const rules = new Map<string, PactMatcher[]>();
  const all = asObject(raw);
  if (version < 3) {
    for (const [path, rule] of Object.entries(all)) {
      if (path.startsWith('$.body')) rules.set(`$${path.slice('$.body'.length)}`, [rule as PactMatcher]);
    }
    return rules;
  }
  for (const [path, rule] of Object.entries(asObject(all.body))) {
    rules.set(path, (asObject(rule).matchers as PactMatcher[] | undefined) ?? []);
  }
  return rules;
}

/** V4 keeps status rules as `{ status: { matchers } }` or under a `$` path. */
function parseStatusRules(raw: unknown): PactMatcher[] {
  const status = asObject(asObject(raw).status);
  const holder = Array.isArray(status.matchers) ? status : asObject(Object.values(status)[0]);
  return Array.isArray(holder.matchers) ? (holder.matchers as PactMatcher[]) : [];
}

function parseBody(
  raw: unknown,
  headers: Record<string, string[]>,
  version: number,
): { body: unknown; contentType?: string } {
  if (version >= 4) {
    const body = asObject(raw);
    if (raw === undefined || !('content' in body)) return { body: undefined };
    const contentType = typeof body.contentType === 'string' ? body.contentType : undefined;
    const content =
      body.encoded === 'base64' && typeof body.content === 'string'
        ? Buffer.from(body.content, 'base64').toString('utf8')
        : body.content;
    return { body: content, ...(contentType ? { contentType } : {}) };
  }
  const contentType = headers['content-type']?.[0];
  return { body: raw, ...(contentType ? { contentType } : {}) };
}

function parseMessage(raw: Json, version: number): PactMessage {
  const headers = lowerCaseHeaders(raw.headers);
  return {
    headers,
    ...parseBody(raw.body, headers, version),
    bodyRules: parseBodyRules(raw.matchingRules, version),
  };
}

function specVersion(pact: Json): number {
  const metadata = asObject(pact.metadata);
  const version = asObject(metadata.pactSpecification ?? metadata['pact-specification']).version;
  return Number.parseInt(String(version ?? '2'), 10) || 2;
}

/** Read one pact file; a file that is not a pact is a {@link ConfigError}. */
export async function readPactFile(file: string): Promise<PactInteraction[]> {
  let text: string;
  let pact: Json;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const reason = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
    throw new ConfigError(`pacu: cannot read pact file ${file}: ${reason}`, { cause });
  }
  try {
    pact = asObject(JSON.parse(text));
  } catch (cause) {
    throw new ConfigError(`pacu: ${file} is not a pact file: ${jsonProblem(text, cause)}`, { cause });
  }
  return parsePact(pact, file);
}

/** The HTTP interactions of a pact document already parsed (from a broker); `file` names where it came from. */
export function parsePact(parsed: unknown, file: string): PactInteraction[] {
  const pact = asObject(parsed);
  if (!Array.isArray(pact.interactions))
    throw new ConfigError(`pacu: ${file} is not a pact file (it has no "interactions" list)`);
  const version = specVersion(pact);
  const consumer = String(asObject(pact.consumer).name ?? '');
  const provider = String(asObject(pact.provider).name ?? '');
  const { interactions: _all, ...document } = pact;
  return (pact.interactions as unknown[])
    .map(asObject)
    .filter((item) => item.type === undefined || item.type === 'Synchronous/HTTP')
    .map((item): PactInteraction => {
      const request = asObject(item.request);
      const response = asObject(item.response);
      const states = Array.isArray(item.providerStates)
        ? item.providerStates.map((state) => ({
            name: String(asObject(state).name),
            params: asObject(asObject(state).params),
          }))
        : typeof item.providerState === 'string'
          ? [{ name: item.providerState, params: {} }]
          : [];
      return {
        file,
        consumer,
        provider,
        description: String(item.description ?? ''),
        providerStates: states,
        request: {
          method: String(request.method ?? 'GET').toUpperCase(),
          path: String(request.path ?? '/'),
          query: parseQuery(request.query),
          ...parseMessage(request, version),
        },
        response: {
          status: Number(response.status ?? 200),
          ...parseMessage(response, version),
          statusRules: parseStatusRules(response.matchingRules),
        },
        specVersion: version,
        source: { interaction: item, pact: document },
      };
    });
}

/** The pact files named: files as given, folders by their `*.json` files (sorted, not recursive). */
export async function collectPactFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const absolute = resolve(path);
    const info = await stat(absolute).catch((cause: unknown) => {
      throw new ConfigError(`pacu: no pact file or folder at ${path}`, { cause });
    });
    if (!info.isDirectory()) {
      files.push(absolute);
      continue;
    }
    const names = (await readdir(absolute)).filter((name) => name.endsWith('.json')).sort();
    if (names.length === 0) throw new ConfigError(`pacu: folder ${path} holds no pact files (*.json)`);
    files.push(...names.map((name) => join(absolute, name)));
  }
  return files;
}
