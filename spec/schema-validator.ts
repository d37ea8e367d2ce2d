import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, FormatDefinition } from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';
import type { JSONSchema7 } from './json-schema.ts';

/** One way a value breaks a schema: where (JSON pointer into the value) and what. */
export interface SchemaIssue {
  readonly path: string;
  readonly message: string;
}

export type SchemaCheck = (value: unknown) => readonly SchemaIssue[];

/** Powers of ten a scaled check can use: 10 ** places for each number of places. */
const SCALES = [1, 10, 100, 1000, 1e4, 1e5, 1e6];

/** True when `value` has at most `places` decimal places, judged on its shortest decimal form. */
export function hasAtMostDecimals(value: number, places: number): boolean {
  // The shortest form is dearer to write than to test: a value whose scaled round trip returns it
  // exactly has a form with at most `places` decimals. Only a "no" goes to the text.
  const scale = SCALES[places];
  if (scale !== undefined && Math.abs(value) < 2 ** 51 / scale && Math.round(value * scale) / scale === value)
    return true;
  if (!Number.isFinite(value)) return false;
  const text = String(value);
  if (text.includes('e')) {
    // 1e-7 and the like: far more places than any money amount has.
    const [mantissa = '', exponent = '0'] = text.split('e');
    const mantissaPlaces = (mantissa.split('.')[1] ?? '').length;
    return mantissaPlaces - Number(exponent) <= places;
  }
  return (text.split('.')[1] ?? '').length <= places;
}

/**
 * A format check that remembers its last answer: a watcher of traffic checks the same timestamp
 * (every record written in one second carries it) again and again.
 */
function rememberingLast(check: (text: string) => boolean): (text: string) => boolean {
  let last: string | undefined;
  let verdict = false;
  return (text) => {
    if (text !== last) {
      verdict = check(text);
      last = text;
    }
    return verdict;
  };
}

/**
 * Ajv loads on the first compile, not with spec/ (a tenth of a second `pacu --help` never needs).
 * `checking`: each schema compiled is first checked against JSON Schema's meta-schema, which costs
 * compiling the meta-schema once a process.
 */
function createAjv(checking: boolean): Ajv2020 {
  const require = createRequire(import.meta.url);
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as typeof addFormatsModule;
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true, validateSchema: checking });
  addFormats.default(ajv);
  const dateTime = ajv.formats['date-time'] as FormatDefinition<string> & {
    validate: (text: string) => boolean;
  };
  ajv.addFormat('date-time', { ...dateTime, validate: rememberingLast(dateTime.validate) });
  ajv.addKeyword({
    keyword: 'x-pacu-max-decimals',
    type: 'number',
    schemaType: 'number',
    errors: false,
    validate: (places: number, data: number) => hasAtMostDecimals(data, places),
  });
  return ajv;
}

let checkingAjv: Ajv2020 | undefined;
let trustingAjv: Ajv2020 | undefined;
const compiled = new WeakMap<object, SchemaCheck>();

/**
 * Whether schemas compiled from now on skip the meta-schema check (decision 202). Off until a
 * description the build checked is loaded, and off for good once any other is: its schemas, and
 * anything derived from them, are checked as Ajv checks them by default.
 */
let trusting: boolean | undefined;

/** The build checked every schema of the description just loaded against the meta-schema. */
export function schemasCheckedByBuild(): void {
  trusting ??= true;
}

/** A description the build did not check was loaded: every later compile checks its schema. */
export function schemasNotChecked(): void {
  trusting = false;
}

let metaChecks = 0;

/** How many schemas this process checked against the meta-schema as it compiled them. */
export const metaSchemaChecks = (): number => metaChecks;

/** Why `schema` breaks JSON Schema's meta-schema (with pacu's keyword), or undefined when it does not. */
export function metaSchemaProblem(schema: JSONSchema7): string | undefined {
  checkingAjv ??= createAjv(true);
  metaChecks += 1;
  return checkingAjv.validateSchema(schema as object)
    ? undefined
    : checkingAjv.errorsText(checkingAjv.errors);
}

function describe(error: ErrorObject): SchemaIssue {
  const params = error.params as Record<string, unknown>;
  let message = error.message ?? error.keyword;
  if (error.keyword === 'required') message = `must have required property ${String(params.missingProperty)}`;
  else if (error.keyword === 'enum')
    message = `must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
  else if (error.keyword === 'additionalProperties')
    message = `must NOT have additional property ${String(params.additionalProperty)}`;
  else if (error.keyword === 'x-pacu-max-decimals') message = 'must have at most two decimal places';
  return { path: error.instancePath || '/', message };
}

let compiles = 0;

/** How many schemas this process has compiled (each once, however often it is asked for). */
export const schemasCompiled = (): number => compiles;

/**
 * Compile a dereferenced schema once and return a checker that lists every issue (empty when the
 * value is valid). Formats (date-time, email) are checked.
 *
 * @example
 * const check = compileSchema(spec.schema('UsdTransfer'));
 * check(record); // [] or [{ path: '/amount', message: 'must be number' }]
 */
export function compileSchema(schema: JSONSchema7): SchemaCheck {
  const cached = compiled.get(schema);
  if (cached) return cached;
  let ajv: Ajv2020;
  if (trusting === true) ajv = trustingAjv ??= createAjv(false);
  else {
    ajv = checkingAjv ??= createAjv(true);
    metaChecks += 1;
  }
  const validate = ajv.compile(schema as object);
  compiles += 1;
  const check: SchemaCheck = (value) => (validate(value) ? [] : (validate.errors ?? []).map(describe));
  compiled.set(schema, check);
  return check;
}
