import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderDiffConsole } from '../cli/reporters/diff-reporters.ts';
import { diffSpecs } from '../diff/index.ts';

// The diff guide's `pacu diff` example must stay true as spec/openapi.yaml evolves: the fixture is
// the spec with three edits, and the guide shows what `pacu diff --quiet` prints for it. When the
// spec changes, rerun with PACU_WRITE_EXAMPLE=1 to rewrite both, and read the new output first.
const at = (file: string): string => new URL(`../${file}`, import.meta.url).pathname;
const SPEC = 'spec/openapi.yaml';
const NEXT = 'docs/examples/openapi-next.yaml';
const WRITE = process.env.PACU_WRITE_EXAMPLE === '1';
const GUIDE = 'docs/guides/diff-gate.md';

/** spec/openapi.yaml, version 1.1: `transaction_id` of the USD transfer record renamed, a `returned` status. */
function nextVersion(spec: string): string {
  const start = spec.indexOf('    UsdTransfer:\n');
  const end = spec.indexOf('    UsdTransferResponse:\n');
  const record = spec
    .slice(start, end)
    .replace(
      'required: [transaction_date, transaction_id, transaction_status]',
      'required: [transaction_date, payment_id, transaction_status]',
    )
    .replace('        transaction_id:\n', '        payment_id:\n');
  return `${spec.slice(0, start)}${record}${spec.slice(end)}`
    .replace('  version: "1.0"\n', '  version: "1.1"\n')
    .replace(
      '      enum: [processing, successful, failed]\n    PaymentStatus:',
      '      enum: [processing, successful, failed, returned]\n    PaymentStatus:',
    );
}

describe("the diff guide's pacu diff example", () => {
  it(`${NEXT} is ${SPEC} with the three edits`, () => {
    const expected = nextVersion(readFileSync(at(SPEC), 'utf8'));
    if (WRITE) writeFileSync(at(NEXT), expected);
    expect(readFileSync(at(NEXT), 'utf8')).toBe(expected);
  });

  it('shows what pacu diff --quiet prints for it', async () => {
    const output = renderDiffConsole(await diffSpecs(SPEC, NEXT), { quiet: true }).trimEnd();
    const readme = readFileSync(at(GUIDE), 'utf8');
    const intro = `\`npx pacu-kit diff\n${SPEC} ${NEXT} --quiet\` prints (exit code 1):\n\n\`\`\`text\n`;
    const start = readme.indexOf(intro) + intro.length;
    expect(start).toBeGreaterThan(intro.length);
    const end = readme.indexOf('\n```', start);
    if (WRITE) writeFileSync(at(GUIDE), `${readme.slice(0, start)}${output}${readme.slice(end)}`);
    expect(readme.slice(start, end)).toBe(output);
  });
});
