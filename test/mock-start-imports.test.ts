import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Statement, StringLiteral } from 'typescript';
import { describe, expect, it } from 'vitest';
import { ts } from './helpers/typescript.ts';

// `pacu mock` starts in CI jobs many times a day: what its command loads before it listens is the
// mock, the spec and the HTTP plumbing. The rules, the proxy and Pact load only when a flag asks.
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The module a statement loads when evaluated, or undefined for a type-only import or export. */
function runtimeSpecifier(statement: Statement): string | undefined {
  if (ts.isImportDeclaration(statement)) {
    const clause = statement.importClause;
    const bindings = clause?.namedBindings;
    const typesOnly =
      clause?.isTypeOnly ||
      (clause?.name === undefined &&
        bindings !== undefined &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        bindings.elements.every((element) => element.isTypeOnly));
    return typesOnly ? undefined : (statement.moduleSpecifier as StringLiteral).text;
  }
  if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.moduleSpecifier)
    return (statement.moduleSpecifier as StringLiteral).text;
  return undefined;
}

/** Files a module loads as it is evaluated: static imports and re-exports that are not type-only. */
function loadedAtStart(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      const specifier = runtimeSpecifier(statement);
      if (specifier?.startsWith('.')) visit(path.resolve(path.dirname(file), specifier));
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
