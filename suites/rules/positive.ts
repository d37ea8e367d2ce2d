import { echoOf, type Profile, type Spec } from '../../spec/index.ts';
import { dataOf } from '../judge/envelope-checks.ts';
import type { ApiRequest, ApiResponse } from '../target/api-request.ts';
import { explainRefusal } from './hidden-bounds.ts';
import { type AnyOperation, isTokenEndpoint, recordFields } from './read-operation.ts';
import { defineRule, PASS, type RuleKit, type RuleOutcome, type Verdict } from './rule.ts';

const every = (): boolean => true;

function eachValidRequest(
  kit: RuleKit<'ids'>,
  judge: (request: ApiRequest, response: ApiResponse) => Verdict,
): Promise<RuleOutcome> {
  return kit.check(kit.valid(), async (request) => judge(request, await kit.send(request)));
}

export const acceptedRule = defineRule({
  id: 'positive.accepted',
  category: 'positive',
  title:
    'a valid request generated from the schema gets HTTP 200 (one refused for a bound the description shows nowhere is reported, not failed)',
  appliesTo: every,
  needs: ['client', 'token', 'ids'],
  profileFor: () => 'documented',
  run: (kit) =>
    kit.check(kit.valid(), async (request): Promise<Verdict> => {
      const response = await kit.send(request);
      if (response.status === 200) return PASS;
      const message = (response.json as { message?: unknown } | undefined)?.message;
      const explained = await explainRefusal(kit, request, response.status, String(message ?? ''));
      if (explained && 'bound' in explained) return PASS;
      const central = explained
        ? `; the same request with a central value of ${explained.refusesCentral} was refused too`
        : '';
      return {
        ok: false,
        reason: `a valid request got HTTP ${response.status}, expected 200${central}`,
        request,
        response,
      };
    }),
});

/** The request's fields: its JSON body's, and its path parameters' by name. */
function sentFields(operation: AnyOperation, request: ApiRequest): Record<string, unknown> {
  const body =
    request.body && operation.requestBody?.mediaType === 'application/json' ? JSON.parse(request.body) : {};
  const template = operation.path.split('/');
  const segments = (request.path.split('?')[0] ?? '').split('/');
  const params = Object.fromEntries(
    template.flatMap((part, index) =>
      /^\{.+\}$/.test(part) ? [[part.slice(1, -1), decodeURIComponent(segments[index] ?? '')]] : [],
    ),
  );
  return { ...params, ...(body as Record<string, unknown>) };
}

/** What the record must repeat: the fields the request carried that the spec says it echoes. */
function echoed(operation: AnyOperation, request: ApiRequest): Record<string, unknown> {
  const fields = echoOf(operation)?.fields ?? [];
  return Object.fromEntries(
    Object.entries(sentFields(operation, request)).filter(([key]) => fields.includes(key)),
  );
}

/** The record repeats what was sent (a token's scope echoes what was granted: granted-scope's rule). */
const echoes = (operation: AnyOperation): boolean => echoOf(operation)?.of === 'request';

const same = (a: unknown, b: unknown): boolean =>
  typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) < 1e-9 : a === b;

export const echoesRequestRule = defineRule({
  id: 'positive.echoes-request',
  category: 'positive',
  title: 'the record repeats the fields the request carried (a field the request left out may be absent)',
  appliesTo: echoes,
  needs: ['client', 'token', 'ids'],
  // Stated where the operation's notes say so ("The response echoes the request fields"); a
  // payout record or a read repeating what was sent is pacu's expectation, not a sentence.
  profileFor: (operation): Profile => (echoOf(operation)?.stated ? 'documented' : 'strict'),
  run: (kit) =>
    eachValidRequest(kit, (request, response) => {
      const data = dataOf(response);
      if (response.status !== 200 || !data) return PASS; // other rules report refusals and shapes
      const wrong = Object.entries(echoed(kit.operationSpec, request)).filter(
        ([key, value]) => !same(data[key], value),
      );
      if (wrong.length === 0) return PASS;
      return {
        ok: false,
        reason: wrong
          .map(([key, value]) => `${key} sent ${JSON.stringify(value)}, got ${JSON.stringify(data[key])}`)
          .join('; '),
        request,
        response,
      };
    }),
});

/**
 * The values a record just created carries, by field, and whether the description states them
 * ("ACTIVE is the value returned on creation", "0 on creation") or only shows them in examples
 * ("carries the status processing in the examples of responses"): then they are strict's.
 */
const CREATION_VALUES: Readonly<Record<string, { readonly value: unknown; readonly profile: Profile }>> = {
  account_status: { value: 'ACTIVE', profile: 'documented' },
  balance: { value: 0, profile: 'documented' },
  transaction_status: { value: 'processing', profile: 'strict' },
};

/** A POST whose record has a field with a creation value: it creates the record. */
const creates = (operation: AnyOperation): boolean =>
  operation.method === 'post' && recordFields(operation).some((field) => field in CREATION_VALUES);

export const creationValuesRule = defineRule({
  id: 'positive.creation-values',
  category: 'positive',
  title: 'a new account is ACTIVE with balance 0 (strict: new payments are processing)',
  appliesTo: creates,
  needs: ['client', 'token', 'ids'],
  profileFor: (operation): Profile =>
    recordFields(operation).some((field) => CREATION_VALUES[field]?.profile === 'documented')
      ? 'documented'
      : 'strict',
  run: (kit) =>
    eachValidRequest(kit, (request, response) => {
      const data = dataOf(response);
      if (response.status !== 200 || !data) return PASS;
      const judged = recordFields(kit.operationSpec).flatMap((field) => {
        const expected = CREATION_VALUES[field];
        return expected && (kit.profile === 'strict' || expected.profile === 'documented')
          ? [{ field, ...expected }]
          : [];
      });
      const wrong = judged.filter(({ field, value }) => !same(data[field], value));
      if (wrong.length === 0) return PASS;
      return {
        ok: false,
        reason: wrong
          .map(
            ({ field, value }) =>
              `${field} is ${JSON.stringify(data[field])}, expected ${JSON.stringify(value)}`,
          )
          .join('; '),
        ...(wrong.every((entry) => entry.profile === 'strict') ? { profile: 'strict' as const } : {}),
        request,
        response,
      };
    }),
});

/** The words the operation's answer message must name (`x-pacu-message-mentions`, quoting the sentence that says so). */
export function messageMentions(spec: Spec<string>, operation: AnyOperation): readonly string[] {
  const paths = spec.document.paths as Record<string, Record<string, Record<string, unknown>>> | undefined;
  const said = paths?.[operation.path]?.[operation.method]?.['x-pacu-message-mentions'] as
    | { readonly words?: readonly string[] }
    | undefined;
  return said?.words ?? [];
}

/** "Endpoint 9: the response message states that the status … is delivered through a webhook." */
export const messageStatesRule = defineRule({
  id: 'positive.message-states',
  category: 'positive',
  title:
    'a success message says what the description says it states (endpoint 9: that the result comes by webhook)',
  appliesTo: (operation) => /response\s+message\s+states/i.test(operation.description),
  needs: ['client', 'token', 'ids'],
  profileFor: () => 'documented',
  run(kit) {
    const words = messageMentions(kit.spec, kit.operationSpec);
    return eachValidRequest(kit, (request, response) => {
      const message = (response.json as { message?: unknown } | undefined)?.message;
      // A refusal or a message that is not text is another rule's finding.
      if (response.status !== 200 || typeof message !== 'string') return PASS;
      const missing = words.filter((word) => !message.toLowerCase().includes(word.toLowerCase()));
      if (missing.length === 0) return PASS;
      return {
        ok: false,
        reason: `the message ${JSON.stringify(message)} does not mention ${missing.join(', ')}, which the description says it states`,
        request,
        response,
      };
    });
  },
});

/** "The version is a path segment: `{base_url}` ends in `/v3`, and every path above sits under it." */
export const versionPathRule = defineRule({
  id: 'positive.version-path',
  category: 'positive',
  title: 'the API answers under a base URL ending in the version segment (/v3)',
  // One exchange shows it: the token endpoint's, which every run makes.
  appliesTo: isTokenEndpoint,
  needs: ['client', 'ids'],
  profileFor: () => 'documented',
  run: (kit) =>
    kit.check(
      kit.valid(),
      async (request) => {
        const response = await kit.send(request);
        const path = new URL(kit.config.baseUrl).pathname.replace(/\/+$/, '');
        if (path.endsWith(kit.spec.basePath)) return PASS;
        return {
          ok: false,
          reason: `the API answered HTTP ${response.status} under ${path || '/'}, a base URL that does not end in ${kit.spec.basePath}`,
          request,
          response,
        };
      },
      1,
    ),
});
