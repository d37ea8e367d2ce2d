import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import {
  ConfigError,
  compileSchema,
  type JSONSchema7,
  type PaymentKind,
  type Scenario,
  type ScenarioMatch,
  type ScenarioRule,
  type ScenarioStep,
} from '../../spec/index.ts';

export type { Scenario, ScenarioMatch, ScenarioRule, ScenarioStep };

/** The fields of a new payment that rules can match on. */
export interface PaymentFacts {
  kind: PaymentKind;
  amount: number;
  account_number?: string;
  transfer_type?: string;
  reference?: string;
}

const KINDS = ['usd_transfer', 'wallet_payout', 'push_to_card'];

export const SCENARIO_SCHEMA: JSONSchema7 = {
  type: 'object',
  required: ['rules'],
  additionalProperties: false,
  properties: {
    rules: {
      type: 'array',
      items: {
        type: 'object',
        required: ['match', 'steps'],
        additionalProperties: false,
        properties: {
          name: { type: 'string' },
          match: {
            type: 'object',
            additionalProperties: false,
            properties: {
              kind: { anyOf: [{ enum: KINDS }, { type: 'array', minItems: 1, items: { enum: KINDS } }] },
              amount: {
                anyOf: [
                  { type: 'number' },
                  {
                    type: 'object',
                    additionalProperties: false,
                    minProperties: 1,
                    properties: { min: { type: 'number' }, max: { type: 'number' } },
                  },
                ],
              },
              account_number: { type: 'string' },
              transfer_type: { enum: ['ACH', 'WIRE'] },
              reference: { type: 'string' },
            },
          },
          steps: {
            type: 'array',
            items: {
              type: 'object',
              required: ['after', 'status'],
              additionalProperties: false,
              properties: {
                after: { type: 'number', minimum: 0 },
                status: { enum: ['successful', 'failed'] },
              },
            },
          },
        },
      },
    },
  },
};

const checkShape = compileSchema(SCENARIO_SCHEMA);

function fail(source: string, message: string): never {
  throw new ConfigError(`pacu: scenario ${source}: ${message}`, { code: 'PACU_ERR_SCENARIO' });
}

/** Check a parsed scenario and return it typed, or throw a ConfigError naming the first mistake. */
export function validateScenario(value: unknown, source = '(inline)'): Scenario {
  const issues = checkShape(value);
  if (issues.length > 0) fail(source, issues.map((issue) => `${issue.path} ${issue.message}`).join('; '));
  const scenario = value as Scenario;
  for (const [index, rule] of scenario.rules.entries()) {
    if (rule.match.reference !== undefined) {
      try {
        new RegExp(rule.match.reference);
      } catch (cause) {
        fail(
          source,
          `/rules/${index}/match/reference is not a regular expression: ${(cause as Error).message}`,
        );
      }
    }
    const afters = rule.steps.map((step) => step.after);
    if (afters.some((after, at) => at > 0 && after < (afters[at - 1] as number))) {
      fail(source, `/rules/${index}/steps must be in order of after`);
    }
  }
  return scenario;
}

/** Read a scenario from a YAML or JSON file (JSON is YAML, so one parser reads both). */
export function loadScenarioFile(file: string): Scenario {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new ConfigError(`pacu: cannot read scenario file ${file}`, { cause, code: 'PACU_ERR_SCENARIO' });
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (cause) {
    fail(file, `not valid YAML or JSON: ${(cause as Error).message.split('\n')[0]}`);
  }
  return validateScenario(parsed, file);
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
