// The tests that compare pacu with the interface description cannot pass by skipping in CI: a child
// vitest with the description pointed at a missing file fails there, and only skips (saying why)
// on a developer's machine.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VITEST = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
/** Every test file that reads the description. */
const NEEDING = [
  'spec/description-statements.test.ts',
  'spec/interface-description.test.ts',
  'spec/statements.test.ts',
  'spec/traceability.test.ts',
  'test/unseen-legal-providers.test.ts',
  'test/unseen-mutants.test.ts',
];

interface FileResult {
  readonly name: string;
  readonly status: string;
  readonly message: string;
  readonly assertionResults: ReadonlyArray<{ readonly title: string; readonly status: string }>;
}

/** A child `vitest run FILES` with the description at a path that does not exist. */
function childVitest(
  files: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number; files: FileResult[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-no-description-'));
  const out = path.join(dir, 'report.json');
  // Not the parent's: a child that thinks it is a vitest worker, or in CI, would not be this test's.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VITEST|CI$|TEST$|NODE_ENV$)/.test(name)),
  );
  return new Promise((resolve) => {
    // One worker: the files share one module graph (isolate off), loaded once instead of per worker.
    // Files one after another, not --maxWorkers=1: with the config's projects that still started one
    // worker per file.
    execFile(
      process.execPath,
      [VITEST, 'run', ...files, '--no-file-parallelism', '--reporter=json', `--outputFile=${out}`],
      {
        cwd: ROOT,
        env: { ...inherited, PACU_DESCRIPTION_FILE: path.join(dir, 'absent.txt'), ...env },
        maxBuffer: 2 ** 26,
      },
      (error) => {
        const report = JSON.parse(readFileSync(out, 'utf8')) as { testResults: FileResult[] };
        resolve({
          code: error ? Number((error as { code?: number }).code ?? 1) : 0,
          files: report.testResults.map((file) => ({ ...file, name: path.relative(ROOT, file.name) })),
        });
      },
    );
  });
}

describe('the interface description in CI', () => {
  it('absent, with CI=true: every file that reads it fails, naming the path', async () => {
    const run = await childVitest(NEEDING, { CI: 'true' });
    expect(run.code).toBe(1);
    expect(run.files.map((file) => [file.name, file.status]).sort()).toEqual(
      NEEDING.map((file) => [file, 'failed']),
    );
    for (const file of run.files)
      expect(file.message).toMatch(/interface description is absent at .*absent\.txt, and CI=true needs it/);
  }, 120_000);

  it('absent, outside CI: the comparisons are skipped, each saying why, and the rest still runs', async () => {
    const files = NEEDING.filter((file) => file.startsWith('spec/'));
    const run = await childVitest(files, {});
    expect(run.code).toBe(0);
    const tests = run.files.flatMap((file) => file.assertionResults);
    const skipped = tests.filter((test) => test.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    expect(tests.filter((test) => test.status === 'passed').length).toBeGreaterThan(0);
    expect(tests.filter((test) => test.status === 'failed')).toEqual([]);
    for (const file of run.files.filter((result) =>
      result.assertionResults.some((t) => t.status === 'skipped'),
    ))
      expect(JSON.stringify(file)).toContain('skipped: no interface description at');
  }, 120_000);
});
