/** How a change treats the clients of the old description. */
export type Severity = 'breaking' | 'risky' | 'safe';

interface CheckEntry {
  readonly severity: Severity;
  /** What the check looks at; `pacu diff` reports its count of checks by these. */
  readonly area:
    | 'operation'
    | 'parameter'
    | 'body'
    | 'status'
    | 'schema'
    | 'security'
    | 'webhook'
    | 'payment'
    | 'decision';
  /** oasdiff's check for the same change and its level (ERR, WARN, INFO), or null when it has none. */
  readonly oasdiff: string | null;
}

const check = (severity: Severity, area: CheckEntry['area'], oasdiff: string | null): CheckEntry => ({
  severity,
  area,
  oasdiff,
});

/**
 * Every change `pacu diff` reports, with its fixed severity and oasdiff's counterpart. A change
 * whose judgement depends on a condition (a property removed from an open or a closed object) has
 * one id per outcome, so an id alone says how bad it is. docs/decisions/100-diff-judges-like-oasdiff-
 * except-payments.md lists where pacu and oasdiff disagree, and why.
 */
export const CHECKS = {
  'operation-removed': check('breaking', 'operation', 'api-removed-without-deprecation ERR'),
  'deprecated-operation-removed': check('risky', 'operation', 'api-removed-with-deprecation INFO'),
  'operation-added': check('safe', 'operation', 'endpoint-added INFO'),
  'operation-id-changed': check('safe', 'operation', 'api-operation-id-removed INFO'),
  'operation-deprecated': check('safe', 'operation', 'endpoint-deprecated INFO'),
  'server-base-path-changed': check('breaking', 'operation', null),

  'new-required-request-parameter': check('breaking', 'parameter', 'new-required-request-parameter ERR'),
  'new-optional-request-parameter': check('safe', 'parameter', 'new-optional-request-parameter INFO'),
  'request-parameter-removed': check('risky', 'parameter', 'request-parameter-removed WARN'),
  'request-parameter-became-required': check(
    'breaking',
    'parameter',
    'request-parameter-became-required ERR',
  ),
  'request-parameter-became-optional': check('safe', 'parameter', 'request-parameter-became-optional INFO'),
  'request-parameter-location-changed': check('breaking', 'parameter', null),

  'request-body-added-required': check('breaking', 'body', 'request-body-added-required ERR'),
  'request-body-added-optional': check('safe', 'body', 'request-body-added-optional INFO'),
  'request-body-became-required': check('breaking', 'body', 'request-body-became-required ERR'),
  'request-body-became-optional': check('safe', 'body', 'request-body-became-optional INFO'),
  'request-body-removed': check('risky', 'body', null),
  'request-media-type-removed': check('breaking', 'body', 'request-body-media-type-removed ERR'),
  'request-media-type-added': check('safe', 'body', 'request-body-media-type-added INFO'),
  'response-media-type-removed': check('breaking', 'body', 'response-media-type-removed ERR'),
  'response-media-type-added': check('safe', 'body', 'response-media-type-added INFO'),

  'response-success-status-removed': check('breaking', 'status', 'response-success-status-removed ERR'),
  'response-non-success-status-removed': check('safe', 'status', 'response-non-success-status-removed INFO'),
  'response-status-added': check('risky', 'status', 'response-(non-)success-status-added INFO'),
  'response-required-header-removed': check('breaking', 'status', 'required-response-header-removed ERR'),
  'response-optional-header-removed': check('risky', 'status', 'optional-response-header-removed WARN'),
  'response-header-added': check('safe', 'status', null),

  'new-required-request-property': check('breaking', 'schema', 'new-required-request-property ERR'),
  'new-optional-request-property': check('safe', 'schema', 'new-optional-request-property INFO'),
  'request-property-removed': check('risky', 'schema', 'request-property-removed WARN'),
  'request-property-removed-closed': check('breaking', 'schema', 'request-property-removed WARN'),
  'request-property-became-required': check('breaking', 'schema', 'request-property-became-required ERR'),
  'request-property-became-optional': check('safe', 'schema', 'request-property-became-optional INFO'),
  'request-property-type-changed': check('breaking', 'schema', 'request-property-type-changed ERR'),
  'request-property-type-generalized': check('safe', 'schema', 'request-property-type-generalized INFO'),
  'request-property-format-changed': check('breaking', 'schema', 'request-property-type-changed ERR'),
  'request-property-format-removed': check('safe', 'schema', 'request-property-type-changed ERR'),
  'request-property-enum-value-removed': check(
    'breaking',
    'schema',
    'request-property-enum-value-removed ERR',
  ),
  'request-property-enum-value-added': check('safe', 'schema', 'request-property-enum-value-added INFO'),
  'request-property-became-enum': check('breaking', 'schema', 'request-property-became-enum ERR'),
  'request-property-enum-dropped': check('safe', 'schema', null),
  'request-property-pattern-added': check('risky', 'schema', 'request-property-pattern-added WARN'),
  'request-property-pattern-changed': check('risky', 'schema', 'request-property-pattern-changed WARN'),
  'request-property-pattern-removed': check('safe', 'schema', 'request-property-pattern-removed INFO'),
  'request-property-bound-tightened': check('breaking', 'schema', 'request-property-max-decreased ERR'),
  'request-property-bound-set': check('risky', 'schema', 'request-property-max-set WARN'),
  'request-property-bound-relaxed': check('safe', 'schema', 'request-property-max-increased INFO'),
  'request-property-closed': check('breaking', 'schema', null),
  'request-property-opened': check('safe', 'schema', null),
  'property-multiple-of-changed': check('risky', 'schema', null),

  'response-required-property-removed': check('breaking', 'schema', 'response-required-property-removed ERR'),
  'response-optional-property-removed': check('risky', 'schema', 'response-optional-property-removed WARN'),
  'response-required-property-added': check('safe', 'schema', 'response-required-property-added INFO'),
  'response-optional-property-added': check('safe', 'schema', 'response-optional-property-added INFO'),
  'response-property-became-optional': check('breaking', 'schema', 'response-property-became-optional ERR'),
  'response-property-became-required': check('safe', 'schema', 'response-property-became-required INFO'),
  'response-property-type-changed': check('breaking', 'schema', 'response-property-type-changed ERR'),
  'response-property-type-narrowed': check('safe', 'schema', 'response-property-type-changed ERR'),
  'response-property-format-changed': check('breaking', 'schema', 'response-property-type-changed ERR'),
  'response-property-format-added': check('safe', 'schema', 'response-property-type-changed ERR'),
  'response-property-enum-value-added': check('risky', 'schema', 'response-property-enum-value-added WARN'),
  'response-property-enum-value-removed': check(
    'safe',
    'schema',
    'response-property-enum-value-removed INFO',
  ),
  'response-property-became-enum': check('safe', 'schema', null),
  'response-property-enum-dropped': check('risky', 'schema', null),
  'response-property-pattern-changed': check('safe', 'schema', 'response-property-pattern-changed INFO'),
  'response-property-bound-relaxed': check('breaking', 'schema', 'response-property-max-increased ERR'),
  'response-property-bound-tightened': check('safe', 'schema', 'response-property-max-decreased INFO'),
  'response-property-opened': check('risky', 'schema', null),
  'response-property-closed': check('safe', 'schema', null),

  'security-scheme-removed': check('breaking', 'security', 'api-security-component-removed INFO'),
  'security-scheme-added': check('safe', 'security', 'api-security-component-added INFO'),
  'security-scheme-changed': check('breaking', 'security', 'api-security-component-type-changed INFO'),
  'token-scope-removed': check('breaking', 'security', 'api-security-component-oauth-scope-removed INFO'),
  'token-scope-renamed': check('breaking', 'security', 'api-security-component-oauth-scope-changed INFO'),
  'token-scope-added': check('safe', 'security', 'api-security-component-oauth-scope-added INFO'),
  'operation-security-added': check('breaking', 'security', 'api-security-added INFO'),
  'operation-security-removed': check('safe', 'security', 'api-security-removed INFO'),
  'operation-security-scope-added': check('breaking', 'security', 'api-security-scope-added INFO'),
  'operation-security-scope-removed': check('safe', 'security', 'api-security-scope-removed INFO'),

  'webhook-removed': check('breaking', 'webhook', null),
  'webhook-added': check('risky', 'webhook', null),
  'webhook-required-header-removed': check('breaking', 'webhook', 'required-response-header-removed ERR'),
  'webhook-optional-header-removed': check('risky', 'webhook', 'optional-response-header-removed WARN'),
  'webhook-header-added': check('safe', 'webhook', null),

  'idempotency-key-removed': check('breaking', 'payment', 'request-property-removed WARN'),
  'idempotency-key-renamed': check('breaking', 'payment', 'request-property-removed WARN'),
  'idempotency-key-optional': check('breaking', 'payment', 'request-property-became-optional INFO'),
  'transaction-status-added': check('risky', 'payment', 'response-property-enum-value-added WARN'),
  'transaction-status-removed': check('breaking', 'payment', 'response-property-enum-value-removed INFO'),
  'amount-type-changed': check('breaking', 'payment', '(request|response)-property-type-changed ERR'),

  'decision-added': check('safe', 'decision', null),
  'decision-removed': check('safe', 'decision', null),
  'decision-changed': check('safe', 'decision', null),
  'decided-limit-lowered': check('breaking', 'decision', null),
  'decided-limit-raised': check('safe', 'decision', null),
} as const satisfies Record<string, CheckEntry>;

export type CheckId = keyof typeof CHECKS;
