/** One way an interaction of a pact disagrees with the OpenAPI description. */
export interface SpecFinding {
  /** Which half of the interaction: the request the consumer sends or the response it expects. */
  readonly part: 'request' | 'response';
  /** JSON path into the part: `$.path`, `$.method`, `$.query.page`, `$.headers.authorization`, `$.body.data.amount`. */
  readonly path: string;
  /** What the spec wants there, and what the pact has instead. */
  readonly message: string;
}

/** `/data/items/0/email` (a JSON pointer) as `$.body.data.items[0].email`. */
export function pointerToPath(pointer: string, root = '$.body'): string {
  if (pointer === '/' || pointer === '') return root;
  return pointer
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, token) => (/^\d+$/.test(token) ? `${path}[${token}]` : `${path}.${token}`), root);
}

/** `$.data.items[*].email` (a Pact rule path) under `$.body`. */
export function rulePathToPath(rulePath: string): string {
  return `$.body${rulePath.replace(/^\$/, '')}`;
}

export function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
