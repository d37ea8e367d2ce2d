import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dereference } from './load-spec.ts';
import {
  decodeGraph,
  encodeGraph,
  type ParsedDescription,
  parseDescription,
  parsedPathOf,
  sha256Of,
} from './parsed-description.ts';

const ROOT = new URL('..', import.meta.url).pathname;

describe('parseDescription', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-parsed-'));
  const file = path.join(dir, 'openapi.yaml');

  it('takes the build’s parsed copy when it was made from exactly this text', async () => {
    const text = 'openapi: 3.1.0\ninfo: { title: a }\n';
    writeFileSync(parsedPathOf(file), JSON.stringify({ sha256: sha256Of(text), document: { from: 'copy' } }));
    expect(await parseDescription(file, text)).toEqual({ document: { from: 'copy' } });
  });

  it('parses the YAML when the copy is stale, unreadable or missing', async () => {
    const text = 'openapi: 3.1.0\ninfo: { title: b }\n';
    const parsed = { document: { openapi: '3.1.0', info: { title: 'b' } } };
    writeFileSync(parsedPathOf(file), JSON.stringify({ sha256: sha256Of('other text'), document: {} }));
    expect(await parseDescription(file, text)).toEqual(parsed);
    writeFileSync(parsedPathOf(file), 'not json');
    expect(await parseDescription(file, text)).toEqual(parsed);
    expect(await parseDescription(path.join(dir, 'none.yaml'), text)).toEqual(parsed);
  });
});

describe('the dereferenced description the build writes', () => {
  it("is the resolver's own result, every shared and circular schema still one object", async () => {
    const built = path.join(ROOT, 'dist/spec/openapi.yaml');
    const copy = JSON.parse(readFileSync(parsedPathOf(built), 'utf8')) as ParsedDescription;
    const read = await parseDescription(built, readFileSync(built, 'utf8'));
    expect(read.dereferenced).toBeDefined();
    expect(encodeGraph(read.dereferenced)).toEqual(encodeGraph(await dereference(copy.document as never)));
  });

  it('spares pacu mock the $ref resolver: the built loader never imports it', () => {
    // A resolve hook that refuses the resolver, in a fresh process loading the built spec.
    const dir = mkdtempSync(path.join(tmpdir(), 'pacu-no-resolver-'));
    writeFileSync(
      path.join(dir, 'refuse.mjs'),
      "export async function resolve(specifier, context, next) {\n  if (specifier.includes('json-schema-ref-parser')) throw new Error('loaded the resolver');\n  return next(specifier, context);\n}\n",
    );
    writeFileSync(
      path.join(dir, 'hook.mjs'),
      "import { register } from 'node:module';\nregister('./refuse.mjs', import.meta.url);\n",
    );
    const output = execFileSync(
      process.execPath,
      [
        '--import',
        path.join(dir, 'hook.mjs'),
        '--input-type=module',
        '-e',
        "const spec = await (await import('./dist/spec/index.js')).loadSpec(); process.stdout.write(String(spec.operations.length));",
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(output).toBe('9');
  });
});

describe('encodeGraph and decodeGraph', () => {
  it('keep every object graph, sharing and cycles included, through JSON', () => {
    const graph = fc
      .tuple(
        fc.array(
          fc.json().map((text) => JSON.parse(text) as unknown),
          { minLength: 1, maxLength: 6 },
        ),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat())),
      )
      .map(([values, links]) => {
        const containers: Array<Record<string, unknown> | unknown[]> = values.map((value) => ({ value }));
        // Each link makes one container hold another: shared, and circular where it points back.
        for (const [from, to, slot] of links) {
          const holder = containers[from % containers.length] as Record<string, unknown>;
          holder[`link${slot % 3}`] = containers[to % containers.length];
        }
        return containers[0];
      });
    fc.assert(
      fc.property(graph, (root) => {
        const decoded = decodeGraph(JSON.parse(JSON.stringify(encodeGraph(root))));
        expect(encodeGraph(decoded)).toEqual(encodeGraph(root));
      }),
      { seed: 39, numRuns: 200 },
    );
  });
});
