import { hasScheme } from '../http/index.ts';
import { compileSchema, type OperationSpec, type Profile, schemaForProfile } from '../spec/index.ts';
import type { PactRequest } from './pact-file.ts';
import { describeValue, pointerToPath, type SpecFinding } from './spec-finding.ts';

/** Query values arrive as text; the spec types them (`page` is an integer). */
function coerce(value: string, type: unknown): unknown {
  if ((type === 'integer' || type === 'number') && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function checkParameters(
  operation: OperationSpec,
  request: PactRequest,
  pathParams: Readonly<Record<string, string>>,
  profile: Profile,
): SpecFinding[] {
  const findings: SpecFinding[] = [];
  const parameters = operation.parameters.filter((parameter) => profile === 'strict' || !parameter.decision);
  for (const name of Object.keys(request.query)) {
    if (!parameters.some((parameter) => parameter.in === 'query' && parameter.name === name))
      findings.push({
        part: 'request',
        path: `$.query.${name}`,
        message: `the spec has no query parameter ${name}`,
      });
  }
  for (const parameter of parameters) {
    const values = parameter.in === 'path' ? [pathParams[parameter.name]] : request.query[parameter.name];
    if (parameter.in === 'header') continue;
    const where = `$.${parameter.in}.${parameter.name}`;
    if (values === undefined || values[0] === undefined) {
      if (parameter.required)
        findings.push({
          part: 'request',
          path: where,
          message: `the spec requires the ${parameter.in} parameter`,
        });
      continue;
    }
    const check = compileSchema(schemaForProfile(parameter.schema, profile));
    for (const value of values) {
      for (const issue of check(coerce(value ?? '', parameter.schema.type)))
        findings.push({ part: 'request', path: where, message: `${describeValue(value)} ${issue.message}` });
    }
  }
  return findings;
}

function checkAuthorization(operation: OperationSpec, request: PactRequest, profile: Profile): SpecFinding[] {
  const security = operation.security;
  if (security.kind === 'none') return [];
  const scheme = security.kind === 'basic' ? 'Basic' : 'Bearer';
  const header = request.headers.authorization?.[0];
  // Under the documented profile a missing header is judged only where the description states the
  // scheme (the token endpoint's Basic, usdTransfer's bearer): the other tokens are pacu decisions.
  if (header === undefined) {
    return profile === 'strict' || operation.bearerDocumented || !operation.decision
      ? [
          {
            part: 'request',
            path: '$.headers.authorization',
            message: `the spec requires ${scheme} authentication`,
          },
        ]
      : [];
  }
  return hasScheme(header, security.kind)
    ? []
    : [
        {
          part: 'request',
          path: '$.headers.authorization',
          message: `the spec wants "${scheme} …", the pact sends ${describeValue(header)}`,
        },
      ];
}

function parsedBody(request: PactRequest, mediaType: string): unknown {
  if (mediaType === 'application/x-www-form-urlencoded' && typeof request.body === 'string')
    return Object.fromEntries(new URLSearchParams(request.body));
  if (typeof request.body === 'string') {
    try {
      return JSON.parse(request.body);
    } catch {
      return request.body;
    }
  }
  return request.body;
}

function checkBody(operation: OperationSpec, request: PactRequest, profile: Profile): SpecFinding[] {
  const spec = operation.requestBody;
  if (!spec) {
    return request.body === undefined
      ? []
      : [{ part: 'request', path: '$.body', message: `the spec takes no request body for ${operation.id}` }];
  }
  if (request.body === undefined) {
    return spec.required
      ? [{ part: 'request', path: '$.body', message: `the spec requires a ${spec.mediaType} body` }]
      : [];
  }
  const findings: SpecFinding[] = [];
  const contentType = request.headers['content-type']?.[0] ?? request.contentType;
  if (!contentType?.toLowerCase().startsWith(spec.mediaType))
    findings.push({
      part: 'request',
      path: '$.headers.content-type',
      message: `the spec wants ${spec.mediaType}, the pact sends ${contentType ?? 'no content type'}`,
    });
  const check = compileSchema(schemaForProfile(spec.schema, profile));
  for (const issue of check(parsedBody(request, spec.mediaType)))
    findings.push({ part: 'request', path: pointerToPath(issue.path), message: issue.message });
  return findings;
}

/** Every way the pact's request disagrees with the operation's parameters, security and body. */
export function checkRequest(
  operation: OperationSpec,
  request: PactRequest,
  pathParams: Readonly<Record<string, string>>,
  profile: Profile,
): SpecFinding[] {
  return [
    ...checkParameters(operation, request, pathParams, profile),
    ...checkAuthorization(operation, request, profile),
    ...checkBody(operation, request, profile),
  ];
}
