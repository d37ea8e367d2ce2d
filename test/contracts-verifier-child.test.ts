// Pact's verifier runs in a child process (decision 032), and a child that answered serves the next
// verification that comes soon after (decision 157): loading pact-js is most of a verification.
// Neither an idle child nor its timer may keep the caller alive.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACU_PACT_DIR, verifyPacts } from '../contracts/index.ts';
import { type RunningMock, startMock } from '../mock/index.ts';
import { resolveTargetConfig, type TargetConfig } from '../suites/index.ts';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const CARDS_PACT = path.join(PACU_PACT_DIR, 'pacu-merchant-cards-pacu-api.json');

/** The live verifier children of process `parent`, read from /proc (a reaped or zombie child has none). */
function verifierChildren(parent: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return ppid === parent && command.includes('verifier-process') ? [Number(pid)] : [];
      } catch {
        return [];
      }
    });
}

const gone = (pid: number): boolean => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === '';
  } catch {
    return true;
  }
};

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 50));
}

let mock: RunningMock;
let target: TargetConfig;
beforeAll(async () => {
  mock = await startMock({ log: () => {} });
  target = resolveTargetConfig({ target: mock.url, controlUrl: mock.origin });
});
afterAll(async () => {
  await mock.close();
});

describe('the Pact verifier child', () => {
  it('serves the next verification that comes within its idle time, unless the environment changed', async () => {
    const pacts = [CARDS_PACT];
    expect((await verifyPacts({ target, pacts })).summary.passed).toBeGreaterThan(0);
    const waiting = verifierChildren(process.pid);
    expect(waiting).toHaveLength(1);
    const [first] = waiting;
    expect((await verifyPacts({ target, pacts, profile: 'strict' })).summary.passed).toBeGreaterThan(0);
    expect(verifierChildren(process.pid)).toEqual([first]);
    // What a child inherited at start is what a job would give it: a changed environment gets a new one.
    process.env.PACU_TEST_VERIFIER_MARK = 'changed';
    try {
      await verifyPacts({ target, pacts });
    } finally {
      delete process.env.PACU_TEST_VERIFIER_MARK;
    }
    expect(verifierChildren(process.pid).filter((pid) => pid !== first)).toHaveLength(1);
    await until(() => verifierChildren(process.pid).length === 0);
  });

  it('does not keep the process that verified alive, and leaves with it', async () => {
    const script = `
      import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
      const { verifyPacts } = await import(${JSON.stringify(`${DIST}contracts/index.js`)});
      const { resolveTargetConfig } = await import(${JSON.stringify(`${DIST}suites/index.js`)});
      const report = await verifyPacts({
        target: resolveTargetConfig(${JSON.stringify({ target: mock.url, controlUrl: mock.origin })}),
        pacts: [${JSON.stringify(CARDS_PACT)}],
      });
      const children = readdirSync('/proc').filter((pid) => /^\\d+$/.test(pid)).filter((pid) => {
        try {
          const stat = readFileSync('/proc/' + pid + '/stat', 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid &&
            readFileSync('/proc/' + pid + '/cmdline', 'utf8').includes('verifier-process');
        } catch { return false; }
      });
      console.log(JSON.stringify({ passed: report.summary.passed, children }));`;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      ),
    );
    const { passed, children } = JSON.parse(out) as { passed: number; children: string[] };
    expect(passed).toBeGreaterThan(0);
    expect(children).toHaveLength(1);
    await until(() => gone(Number(children[0])));
  });
});
