import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ConfigError, compileSchema, type JSONSchema7, yamlProblem } from '../spec/index.ts';
import { validateFault } from './internal/faults.ts';
import type { Scenario } from './types.ts';

const KINDS = ['usd_transfer', 'wallet_payout', 'push_to_card'];

export const SCENARIO_SCHEMA: JSONSchema7 = {
  type: 'object',
  required: ['rules'],
  additionalProperties: false,
  properties: {
    // Each item is checked as the control API checks a fault (validateFault), naming the field.
    faults: { type: 'array', items: { type: 'object' } },
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

// Compiled on first use: every mock start imports this module, few load a scenario (decision 093).
let checkShape: ReturnType<typeof compileSchema> | undefined;

function fail(source: string, message: string): never {
  throw new ConfigError(`pacu: scenario ${source}: ${message}`, { code: 'PACU_ERR_SCENARIO' });
}

/** Check a parsed scenario and return it typed, or throw a ConfigError naming the first mistake. */
export function validateScenario(value: unknown, source = '(inline)'): Scenario {
  checkShape ??= compileSchema(SCENARIO_SCHEMA);
  const issues = checkShape(value);
  if (issues.length > 0) fail(source, issues.map((issue) => `${issue.path} ${issue.message}`).join('; '));
  const scenario = value as Scenario;
  for (const [index, fault] of (scenario.faults ?? []).entries()) {
    try {
      validateFault(fault, `/faults/${index}`);
    } catch (cause) {
      fail(source, (cause as Error).message);
    }
  }
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
    // The YAML parser loads only for a scenario file: a default start never needs it.
    const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
    parsed = parse(text);
  } catch (cause) {
    fail(file, yamlProblem(cause));
  }
  return validateScenario(parsed, file);
}
