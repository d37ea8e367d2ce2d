import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// `pacu mock` starts in CI jobs many times a day: what its command loads before it listens is the
// mock, the spec and the HTTP plumbing. The rules, the proxy and Pact load only when a flag asks.
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Files a module loads as it is evaluated: static imports and re-exports that are not type-only. */
function loadedAtStart(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      const isImport = ts.isImportDeclaration(statement);
      if (!isImport && !ts.isExportDeclaration(statement)) continue;
      if (isImport ? statement.importClause?.isTypeOnly : statement.isTypeOnly) continue;
      const bindings = isImport ? statement.importClause?.namedBindings : undefined;
      const onlyTypes =
        bindings !== undefined &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        bindings.elements.every((element) => element.isTypeOnly) &&
        isImport &&
        statement.importClause?.name === undefined;
      const specifier = statement.moduleSpecifier;
      if (onlyTypes || !specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.'))
        continue;
      visit(path.resolve(path.dirname(file), specifier.text));
    }
  };
  visit(path.join(ROOT, entry));
  return seen;
}

describe('pacu mock at start', () => {
  it('loads the mock, the spec and http/, not the rules, the proxy or Pact', () => {
    const folders = new Set(
      [...loadedAtStart('cli/mock-command.ts')].map((file) => path.relative(ROOT, file).split(path.sep)[0]),
    );
    expect([...folders].sort()).toEqual(['cli', 'http', 'mock', 'spec']);
  });
});
