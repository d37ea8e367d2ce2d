import { bearerRequiredRule, scopeEnforcedRule, tokenGrantRule, tokenRefusalRule } from './auth.ts';
import { contentTypeRule, errorShapeRule, successShapeRule } from './envelope.ts';
import { invalidBodyRule, malformedRequestRule, unknownIdRule } from './errors.ts';
import { grantedScopeRule } from './granted-scope.ts';
import {
  concurrentRequestsRule,
  sameReferenceDifferentBodyRule,
  sameReferenceReplayRule,
} from './idempotency.ts';
import { signedWebhooksRule, statusTransitionsRule } from './lifecycle.ts';
import { limitsRule } from './limits.ts';
import {
  acceptedRule,
  creationValuesRule,
  echoesRequestRule,
  messageStatesRule,
  versionPathRule,
} from './positive.ts';
import type { Rule } from './rule.ts';
import { tokenExpiryRule } from './token-expiry.ts';

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
  messageStatesRule,
  versionPathRule,
  statusTransitionsRule,
  signedWebhooksRule,
];
