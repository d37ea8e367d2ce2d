// The npm name `pacu` belongs to another package: every place a user copies an install line, an
// import or an npx call from must name `pacu-kit`, or it fetches that stranger's code.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');

/** What users copy: the README, the docs (decision records are history), the package test's consumers. */
const COPIED = [
  'README.md',
  'index.ts',
  'CONTRIBUTING.md',
  ...['docs', 'docs/guides'].flatMap((dir) =>
    readdirSync(path.join(root, dir))
      .filter((file) => /\.(md|ya?ml)$/.test(file))
      .map((file) => `${dir}/${file}`),
  ),
  ...readdirSync(path.join(root, 'test/package/consumer')).map((file) => `test/package/consumer/${file}`),
];

/** `pacu` as the npm package, not as the command: an install, an import specifier, an npx call. */
const PACKAGE_NAMED_PACU = [
  /\bnpm (?:install|i|add)\b[^\n`]*?(?<![\w./-])pacu(?![\w-])/,
  /\b(?:from|import\(|resolve\()\s*['"]pacu(?:\/[^'"]*)?['"]/,
  /\bnpx (?:-y |--yes )?pacu(?![\w-])/,
];

describe('the package name', () => {
  it('is pacu-kit, with the command still pacu', () => {
    const manifest = JSON.parse(read('package.json')) as { name: string; bin: Record<string, string> };
    expect(manifest.name).toBe('pacu-kit');
    expect(Object.keys(manifest.bin)).toEqual(['pacu']);
    expect((JSON.parse(read('package-lock.json')) as { name: string }).name).toBe('pacu-kit');
  });

  it('is pacu-kit in every install line, import and npx call users copy', () => {
    const wrong = COPIED.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, index) =>
          PACKAGE_NAMED_PACU.some((pattern) => pattern.test(line))
            ? [`${file}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(wrong).toEqual([]);
  });
});
