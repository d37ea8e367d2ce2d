import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../spec/index.ts';
import type { Report } from '../../suites/index.ts';
import { renderConsole } from './console-reporter.ts';
import { parseReporterSpecs } from './write-reports.ts';

describe('parseReporterSpecs', () => {
  it('reads console, file and stdout reporters', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacu-reporters-'));
    expect(parseReporterSpecs(['console', `json:${dir}/out/r.json`])).toEqual([
      { kind: 'console' },
      { kind: 'json', path: `${dir}/out/r.json` },
    ]);
    expect(parseReporterSpecs(['junit:-'])).toEqual([{ kind: 'junit', path: '-' }]);
  });

  it('lets one reporter at most take stdout', () => {
    expect(() => parseReporterSpecs(['console', 'json:-'])).toThrow(/only one reporter can write to stdout/);
  });

  it.each(['xml:r.xml', 'html', 'markdown:'])('refuses %s', (value) => {
    expect(() => parseReporterSpecs([value])).toThrow(ConfigError);
  });
});

describe('console reporter', () => {
  it("renders a verify report's contract category like any other", () => {
    const report: Report = {
      tool: 'pacu',
      command: 'verify',
      version: '0.1.0',
      target: 'http://h/v3',
      seed: 1,
      profile: 'documented',
      startedAt: '2024-06-01T00:00:00Z',
      durationMs: 10,
      summary: { passed: 1, failed: 0, skipped: 0 },
      rules: [
        {
          id: 'pact.a',
          category: 'contract',
          operation: 'listUsers',
          profile: 'documented',
          status: 'passed',
          runs: 1,
          durationMs: 1,
        },
      ],
    };
    expect(renderConsole(report)).toMatch(/operation\s+contract\nlistUsers\s+pass/);
  });
});
