import type { PaymentKind, Scenario, ScenarioMatch, ScenarioStep } from '../types.ts';

/** The fields of a new payment that rules can match on. */
export interface PaymentFacts {
  kind: PaymentKind;
  amount: number;
  account_number?: string;
  transfer_type?: string;
  reference?: string;
}

const compiledReferences = new Map<string, RegExp>();
function referencePattern(source: string): RegExp {
  let pattern = compiledReferences.get(source);
  if (!pattern) {
    pattern = new RegExp(`^(?:${source})$`);
    compiledReferences.set(source, pattern);
  }
  return pattern;
}

function matches(match: ScenarioMatch, facts: PaymentFacts): boolean {
  if (
    match.kind !== undefined &&
    !(Array.isArray(match.kind) ? match.kind : [match.kind]).includes(facts.kind)
  )
    return false;
  if (typeof match.amount === 'number' && match.amount !== facts.amount) return false;
  if (typeof match.amount === 'object') {
    if (match.amount.min !== undefined && facts.amount < match.amount.min) return false;
    if (match.amount.max !== undefined && facts.amount > match.amount.max) return false;
  }
  if (match.account_number !== undefined && match.account_number !== facts.account_number) return false;
  if (match.transfer_type !== undefined && match.transfer_type !== facts.transfer_type) return false;
  if (match.reference !== undefined && !referencePattern(match.reference).test(facts.reference ?? ''))
    return false;
  return true;
}

/** The steps of the first rule that matches, or none (the payment stays processing). */
export function stepsFor(scenario: Scenario, facts: PaymentFacts): readonly ScenarioStep[] {
  return scenario.rules.find((rule) => matches(rule.match, facts))?.steps ?? [];
}
