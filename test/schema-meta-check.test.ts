// The build checks every schema of the description it ships against JSON Schema's meta-schema, so a
// process that reads the built description compiles its schemas without compiling the meta-schema
// again (decision 202); any other description is checked as it is compiled, as Ajv does by default.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as SpecIndex from '../spec/index.ts';
import type * as SchemaValidator from '../spec/schema-validator.ts';
import { PACU_BIN } from './helpers/pacu-bin.ts';

const DIST = path.dirname(path.dirname(PACU_BIN));
const BUILT_SPEC = path.join(DIST, 'spec', 'openapi.yaml');

// The built modules, as a pacu process runs them (the sources parse the YAML and check at start).
const built = async () => ({
  spec: (await import(pathToFileURL(path.join(DIST, 'spec', 'index.js')).href)) as typeof SpecIndex,
  validator: (await import(
    pathToFileURL(path.join(DIST, 'spec', 'schema-validator.js')).href
  )) as typeof SchemaValidator,
});

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'pacu-meta-schema-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("the description's schemas against JSON Schema's meta-schema", () => {
  it('are checked by the build, not again by a process that reads the built description', async () => {
    const { spec, validator } = await built();
    const description = await spec.loadSpec(BUILT_SPEC);
    const before = validator.metaSchemaChecks();
    for (const operation of description.operations) {
      const body = operation.requestBody?.schema;
      if (body) expect(validator.compileSchema(body)({}).length).toBeGreaterThan(0);
      for (const response of Object.values(operation.responses))
        if (response.schema) validator.compileSchema(response.schema);
    }
    expect(validator.metaSchemaChecks()).toBe(before);
    // What the build checked: each schema passes, and a broken one is named.
    for (const operation of description.operations)
      if (operation.requestBody?.schema)
        expect(validator.metaSchemaProblem(operation.requestBody.schema)).toBeUndefined();
    expect(validator.metaSchemaProblem({ type: 'object', minProperties: 'two' } as never)).toMatch(
      /minProperties/,
    );
  });

  it('are checked as they compile for any other description: a broken schema is refused, as before', async () => {
    const { spec, validator } = await built();
    const text = await readFile(BUILT_SPEC, 'utf8');
    const broken = path.join(folder, 'openapi.yaml');
    // A copy whose transfer request has a bound written as text, which JSON Schema does not allow.
    const opening = '    UsdTransferRequest:\n';
    const at = text.indexOf(opening);
    expect(at).toBeGreaterThan(0);
    const end = at + opening.length;
    await writeFile(broken, `${text.slice(0, end)}      minProperties: "two"\n${text.slice(end)}`);
    const description = await spec.loadSpec(broken);
    const before = validator.metaSchemaChecks();
    const compileAll = () => {
      for (const operation of description.operations)
        if (operation.requestBody?.schema) validator.compileSchema(operation.requestBody.schema);
    };
    expect(compileAll).toThrow(/schema is invalid/);
    expect(validator.metaSchemaChecks()).toBeGreaterThan(before);
    // From then on the process checks every schema it compiles, the built description's too.
    const checked = validator.metaSchemaChecks();
    const shipped = await spec.loadSpec(BUILT_SPEC);
    validator.compileSchema({ ...(shipped.operation('usdTransfer').requestBody?.schema ?? {}) });
    expect(validator.metaSchemaChecks()).toBe(checked + 1);
  });
});
