import type { Rule } from './rule.ts';
import { bearerRequiredRule, scopeEnforcedRule, tokenGrantRule, tokenRefusalRule } from './rules/auth.ts';
import { contentTypeRule, errorShapeRule, successShapeRule } from './rules/envelope.ts';
import { invalidBodyRule, malformedRequestRule, unknownIdRule } from './rules/errors.ts';
import { grantedScopeRule } from './rules/granted-scope.ts';
import {
  concurrentRequestsRule,
  sameReferenceDifferentBodyRule,
  sameReferenceReplayRule,
} from './rules/idempotency.ts';
import { signedWebhooksRule, statusTransitionsRule } from './rules/lifecycle.ts';
import { limitsRule } from './rules/limits.ts';
import { acceptedRule, creationValuesRule, echoesRequestRule, versionPathRule } from './rules/positive.ts';
import { tokenExpiryRule } from './rules/token-expiry.ts';

/** Every rule `pacu check` knows, in report order. */
export const RULES: readonly Rule[] = [
  contentTypeRule,
  successShapeRule,
  errorShapeRule,
  tokenGrantRule,
  grantedScopeRule,
  tokenRefusalRule,
  bearerRequiredRule,
  scopeEnforcedRule,
  tokenExpiryRule,
  sameReferenceReplayRule,
  sameReferenceDifferentBodyRule,
  concurrentRequestsRule,
  invalidBodyRule,
  malformedRequestRule,
  unknownIdRule,
  limitsRule,
  acceptedRule,
  echoesRequestRule,
  creationValuesRule,
  versionPathRule,
  statusTransitionsRule,
  signedWebhooksRule,
];
