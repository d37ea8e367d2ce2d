import {
  compileSchema,
  type JSONSchema7,
  type OperationSpec,
  type Profile,
  schemaForProfile,
} from '../spec/index.ts';
import { checkMatchers } from './check-matchers.ts';
import type { PactResponse } from './pact-file.ts';
import { type PathStep, schemaAt } from './schema-at-path.ts';
import { pointerToPath, type SpecFinding } from './spec-finding.ts';
import { statusCodeVerdict } from './status-code-verdict.ts';

function stepsToPath(steps: readonly PathStep[]): string {
  return steps.reduce(
    (path, step) =>
      step.kind === 'property'
        ? `${path}.${step.name}`
        : step.kind === 'element'
          ? `${path}[*]`
          : `${path}.*`,
    '$.body',
  );
}

/**
 * A consumer may rely only on what the spec promises: every field its expected body names must be
 * defined, and required, at that place.
 */
function checkFieldsPromised(schema: JSONSchema7, body: unknown): SpecFinding[] {
  const findings: SpecFinding[] = [];
  const visit = (value: unknown, steps: PathStep[]): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, [...steps, { kind: 'element' }]);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const [name, child] of Object.entries(value)) {
      const childSteps: PathStep[] = [...steps, { kind: 'property', name }];
      const facts = schemaAt(schema, childSteps);
      const path = stepsToPath(childSteps);
      if (!facts) {
        findings.push({ part: 'response', path, message: `the spec defines no field ${name} here` });
        continue;
      }
      if (!facts.required)
        findings.push({
          part: 'response',
          path,
          message: `the spec does not require ${name}: the provider may leave it out`,
        });
      visit(child, childSteps);
    }
  };
  visit(body, []);
  return findings;
}

/** Every way the response a pact expects disagrees with what the spec lets the provider send. */
export function checkResponse(
  operation: OperationSpec,
  response: PactResponse,
  profile: Profile,
): SpecFinding[] {
  const spec = operation.responses.get(response.status);
  if (!spec || (profile === 'documented' && spec.decision)) {
    const statuses = [...operation.responses.values()]
      .filter((candidate) => profile === 'strict' || !candidate.decision)
      .map((candidate) => candidate.status)
      .join(', ');
    return [
      {
        part: 'response',
        path: '$.status',
        message: `the spec has no ${response.status} response for ${operation.id} (it has ${statuses}${profile === 'documented' ? '; pacu decisions count under --profile strict' : ''})`,
      },
    ];
  }
  const statusFindings = response.statusRules
    .filter((matcher) => matcher.match === 'statusCode')
    .map((matcher) =>
      statusCodeVerdict(
        matcher,
        response.status,
        [...operation.responses.values()]
          .filter((candidate) => profile === 'strict' || !candidate.decision)
          .map((candidate) => candidate.status),
      ),
    )
    .filter((verdict) => !verdict.compatible)
    .map((verdict): SpecFinding => ({ part: 'response', path: '$.status', message: verdict.reason }));
  if (response.body === undefined) return statusFindings;
  if (!spec.schema)
    return [
      { part: 'response', path: '$.body', message: `the spec's ${response.status} response has no body` },
    ];
  const schema = schemaForProfile(spec.schema, profile);
  // A consumer names only the fields it reads (Pact ignores the rest): a field it leaves out is fine.
  const issues = compileSchema(schema)(response.body)
    .filter((issue) => !issue.message.startsWith('must have required property'))
    .map(
      (issue): SpecFinding => ({ part: 'response', path: pointerToPath(issue.path), message: issue.message }),
    );
  return [
    ...statusFindings,
    ...issues,
    ...checkFieldsPromised(schema, response.body),
    ...checkMatchers(schema, response.bodyRules, Object.values(spec.examples), {
      value: response.body,
      mediaType: 'application/json',
    }),
  ];
}
