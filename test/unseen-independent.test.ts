import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankSandboxFlags } from './helpers/bank-sandbox-flags.ts';
import { runCli } from './helpers/run-cli.ts';
import { type BankSandbox, MUTANT_NAMES, MUTANTS, startBankSandbox } from './providers/independent/index.ts';

// pacu judged against a sandbox written from the interface description alone (its choices and
// mutants: test/providers/independent/). These assert the right verdicts, whatever pacu says today.

const SEEDS = [1, 2, 3] as const;
const MUTANT_SEED = 7;
const MUTANT_RUNS = 30;
// A target served under another version may also be refused up front (exit 2, one line naming /v3),
// as pacu refuses a base URL whose token endpoint answers 404: either way it never passes.
const REFUSAL_CATCHES: ReadonlySet<string> = new Set(['version-v2']);

let dir: string;
let n = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pacu-unseen-independent-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Verdict {
  readonly code: number;
  /** `rule operation: reason` of each failed rule, or the one line of a usage error. */
  readonly failures: readonly string[];
}

async function pacu(
  command: 'check' | 'verify',
  sandbox: BankSandbox,
  extra: readonly string[] = [],
): Promise<Verdict> {
  n += 1;
  const file = join(dir, `${command}-${n}.json`);
  const { code, stderr } = await runCli([
    command,
    ...bankSandboxFlags(sandbox),
    ...extra,
    '--reporter',
    `json:${file}`,
    '--quiet',
  ]);
  const report = await readFile(file, 'utf8').then(
    (text) =>
      JSON.parse(text) as {
        rules: { id: string; operation: string; status: string; failure?: { reason: string } }[];
      },
    () => undefined,
  );
  if (report === undefined) return { code, failures: [stderr.trim()] };
  const failures = report.rules
    .filter((rule) => rule.status === 'failed')
    .map((rule) => `${rule.id} ${rule.operation}: ${rule.failure?.reason ?? ''}`);
  return { code, failures };
}

/** A failure with the sandbox's own ids, amounts and generated strings taken out, to compare runs. */
function shape(failure: string): string {
  return failure
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\b[\w-]*\d[\w-]*\b/g, '#')
    .replace(/\s+/g, ' ');
}

describe('pacu check and verify against a bank sandbox written from the description alone', () => {
  for (const seed of SEEDS) {
    it(`check passes the correct sandbox (seed ${seed}, default runs)`, async () => {
      const sandbox = await startBankSandbox();
      try {
        const verdict = await pacu('check', sandbox, ['--seed', String(seed)]);
        expect(verdict).toEqual({ code: 0, failures: [] });
      } finally {
        await sandbox.close();
      }
    }, 90_000);
  }

  it('check passes legal variants: every wallet field required, the first customer PENDING, amounts up to 25,000 (seed 1)', async () => {
    const sandbox = await startBankSandbox({
      walletRequiresEveryField: true,
      firstCustomerPending: true,
      amountCeiling: 25_000,
    });
    try {
      const verdict = await pacu('check', sandbox, ['--seed', '1']);
      expect(verdict).toEqual({ code: 0, failures: [] });
    } finally {
      await sandbox.close();
    }
  }, 90_000);

  it('verify passes the correct sandbox twice in a row', async () => {
    const sandbox = await startBankSandbox();
    try {
      const first = await pacu('verify', sandbox);
      const second = await pacu('verify', sandbox);
      expect({ first, second }).toEqual({
        first: { code: 0, failures: [] },
        second: { code: 0, failures: [] },
      });
    } finally {
      await sandbox.close();
    }
  }, 90_000);

  describe('check catches each mutant', () => {
    const mutantFlags = ['--seed', String(MUTANT_SEED), '--runs', String(MUTANT_RUNS)];
    // What pacu says of the correct sandbox with the same seed and runs: a mutant counts as caught
    // only by a failure beyond these, so a false red cannot pass for a catch.
    let baseline: ReadonlySet<string>;

    beforeAll(async () => {
      const sandbox = await startBankSandbox();
      try {
        baseline = new Set((await pacu('check', sandbox, mutantFlags)).failures.map(shape));
      } finally {
        await sandbox.close();
      }
    }, 60_000);

    for (const mutant of MUTANT_NAMES) {
      it(`${mutant}: breaks ${MUTANTS[mutant].sentence}`, async () => {
        const sandbox = await startBankSandbox({ mutant });
        try {
          const { code, failures } = await pacu('check', sandbox, mutantFlags);
          const beyondBaseline = failures.filter((failure) => !baseline.has(shape(failure)));
          const refused =
            REFUSAL_CATCHES.has(mutant) && code === 2 && failures.some((line) => line.includes('/v3'));
          const verdict = refused ? { code: 1, caught: true } : { code, caught: beyondBaseline.length > 0 };
          expect(verdict, failures.join('\n')).toEqual({ code: 1, caught: true });
        } finally {
          await sandbox.close();
        }
      }, 60_000);
    }
  });
});
