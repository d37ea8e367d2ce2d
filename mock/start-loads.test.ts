// What a mock's start does before it listens is what `pacu mock` ready costs. Timed goals live in
// `npm run bench -- --only startup`; this pins the cause of the last miss: the YAML parser and Ajv
// loaded at every start by modules that need them only for a scenario, a state file or the
// statement index (decision 093).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;

/** In a fresh process: start the mock with its defaults and list the packages loaded once it listens. */
const PROBE = `
import { createRequire } from 'node:module';
const used = (name) => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/node_modules/' + name + '/'));
await import('./spec/index.ts');
// Every command imports spec/; from the sources the mock then parses the YAML (the build's parsed copy is in dist/).
const yaml = used('yaml');
const { startMock } = await import('./mock/index.ts');
const mock = await startMock({ log: () => {} });
process.stdout.write(JSON.stringify({ yaml, ajv: used('ajv') }));
await mock.close();
`;

describe('a default mock start', () => {
  it('spec/ loads no YAML parser, and the mock no Ajv before it listens (Prism brings Ajv after)', () => {
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', PROBE], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual({ yaml: false, ajv: false });
  });
});
