// npm run build: compile to dist/ and copy the files the compiled code reads at run time next to
// it, since tsc emits only JavaScript and declarations. `--if-stale` (prepare, packing, the tests'
// global setup) skips the build when dist/ was built from the sources as they are now.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = new URL('..', import.meta.url);
const at = (path) => new URL(path, root);
/** Kept outside dist/ so the package never ships it; a build removes it first and writes it last. */
const stamp = at('node_modules/.cache/pacu/dist.sha256');

/** One digest of everything the build reads: the compiled folders (tests aside) and the tsconfigs. */
function sourcesDigest() {
  const tsconfig = JSON.parse(readFileSync(at('tsconfig.build.json'), 'utf8'));
  const skipped = /\.(test|case)\.ts$|^spec\/scripts\/|^contracts\/consumer-tests\//;
  const files = tsconfig.include
    .flatMap((entry) =>
      entry.endsWith('.ts')
        ? [entry]
        : readdirSync(at(entry), { recursive: true, withFileTypes: true })
            .filter((file) => file.isFile())
            .map((file) => `${file.parentPath.slice(at('.').pathname.length)}/${file.name}`),
    )
    .filter((file) => !skipped.test(file))
    .sort();
  const hash = createHash('sha256');
  for (const file of [...files, 'tsconfig.json', 'tsconfig.build.json']) {
    hash
      .update(`${file}\0`)
      .update(readFileSync(at(file)))
      .update('\0');
  }
  return hash.digest('hex');
}

const digest = sourcesDigest();
if (process.argv.includes('--if-stale')) {
  let built = '';
  try {
    built = readFileSync(stamp, 'utf8');
  } catch {}
  // The stamp travels with node_modules (a copied worktree): without dist/ it proves nothing.
  if (built === digest && existsSync(at('dist/index.js'))) process.exit(0);
}
rmSync(stamp, { force: true });
rmSync(at('dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
cpSync(at('spec/openapi.yaml'), at('dist/spec/openapi.yaml'));
cpSync(at('spec/statements.yaml'), at('dist/spec/statements.yaml'));
cpSync(at('contracts/pacts'), at('dist/contracts/pacts'), { recursive: true });
// The description parsed and dereferenced once here, so no start of pacu parses YAML or loads the
// $ref resolver (spec/parsed-description.ts; the compiled loader dereferences as any start would).
const yamlFile = at('dist/spec/openapi.yaml');
const text = readFileSync(yamlFile, 'utf8');
const document = parse(text, { maxAliasCount: -1 });
const { encodeGraph } = await import(at('dist/spec/parsed-description.js').href);
const { dereference } = await import(at('dist/spec/load-spec.js').href);
const { prismReaders, prismReadingPathOf, readOperations } = await import(
  at('dist/mock/prism-adapter.js').href
);
const { metaSchemaProblem } = await import(at('dist/spec/schema-validator.js').href);
const sha256 = createHash('sha256').update(text).digest('hex');
// From the document as a start reads it back (JSON: YAML's anchors no longer shared objects).
const dereferenced = await dereference(JSON.parse(JSON.stringify(document)));
// Every schema of the description checked against JSON Schema's meta-schema once here, so no start
// compiles the meta-schema to check them again (decision 202). Any other description is checked at start.
// The meta-schema is recursive, so the outermost schemas are the ones to check: each value under a
// `schema` key, and each of `components.schemas`.
const schemaRoots = new Set();
const walked = new Set();
const walk = (node) => {
  if (node === null || typeof node !== 'object' || walked.has(node)) return;
  walked.add(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'schema' && value && typeof value === 'object') schemaRoots.add(value);
    else walk(value);
  }
};
walk(dereferenced);
for (const schema of Object.values(dereferenced.components?.schemas ?? {})) schemaRoots.add(schema);
for (const schema of schemaRoots) {
  const problem = metaSchemaProblem(schema);
  if (problem) throw new Error(`spec/openapi.yaml: a schema breaks JSON Schema's meta-schema: ${problem}`);
}
writeFileSync(
  new URL('openapi.yaml.parsed.json', yamlFile),
  JSON.stringify({ sha256, document, dereferenced: encodeGraph(dereferenced), schemasChecked: true }),
);
// Prism's reading of the operations, so a mock loads only Prism's validator (decision 199): a file
// of its own, read when the mock loads Prism, so no other start parses it.
writeFileSync(
  prismReadingPathOf(fileURLToPath(yamlFile)),
  JSON.stringify({
    sha256,
    readers: prismReaders(),
    operations: encodeGraph(await readOperations(JSON.parse(JSON.stringify(document)))),
  }),
);
// The `pacu` command as one bundle of pacu's own modules (decision 198): Node 20 has no compile
// cache for ES modules, and resolving and loading some 160 files was a third of a mock's start.
// The packages pacu depends on stay outside it; each command's code stays its own lazily loaded chunk.
const { build } = await import('esbuild');
await build({
  entryPoints: [fileURLToPath(at('dist/cli/bin.js'))],
  outdir: fileURLToPath(at('dist/cli')),
  chunkNames: 'chunks/[name]-[hash]',
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
mkdirSync(new URL('.', stamp), { recursive: true });
writeFileSync(stamp, digest);
