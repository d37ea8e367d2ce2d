import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCoverageObserver, createMock } from '../../mock/index.ts';
import { loadSpec } from '../../spec/index.ts';
import { coverageFormat, writeCoverageReport } from './coverage-report.ts';

describe('coverage report', () => {
  it('writes json and markdown by extension, listing what the traffic never reached', async () => {
    const app = await createMock({ clock: 'manual', log: () => {} });
    try {
      await app.request('/v3/users');
      const dir = mkdtempSync(path.join(tmpdir(), 'pacu-cov-'));
      await writeCoverageReport(path.join(dir, 'c.json'), await app.control.coverage());
      await writeCoverageReport(path.join(dir, 'c.md'), await app.control.coverage());
      const json = JSON.parse(readFileSync(path.join(dir, 'c.json'), 'utf8'));
      expect(json.operations.find((row: { operationId: string }) => row.operationId === 'listUsers')).toEqual(
        {
          operationId: 'listUsers',
          statuses: { 401: 1 },
          missing: [200, 400],
        },
      );
      const markdown = readFileSync(path.join(dir, 'c.md'), 'utf8');
      expect(markdown).toContain('- listUsers never answered 200');
      expect(markdown).toContain('| `listUsers` | 401×1 | 200, 400 |');
      expect(markdown).toContain('| usd_transfer: processing → failed | 0 |');
    } finally {
      await app.close();
    }
  });

  it("titles the proxy's coverage as the proxy's, with no webhook, transition or fault rows it cannot see", async () => {
    const coverage = createCoverageObserver(await loadSpec()).report();
    const dir = mkdtempSync(path.join(tmpdir(), 'pacu-cov-proxy-'));
    for (const name of ['c.md', 'c.html', 'c.json'])
      await writeCoverageReport(path.join(dir, name), coverage, 'proxy');
    const markdown = readFileSync(path.join(dir, 'c.md'), 'utf8');
    const html = readFileSync(path.join(dir, 'c.html'), 'utf8');
    expect(markdown).toMatch(/^## pacu proxy coverage\n/);
    expect(html).toContain('<title>pacu proxy coverage</title>');
    for (const text of [markdown, html]) {
      expect(text).not.toMatch(/pacu mock|webhook|transition|fault|processing →/i);
      expect(text).toContain('listUsers never answered 200');
    }
    const json = JSON.parse(readFileSync(path.join(dir, 'c.json'), 'utf8'));
    expect(Object.keys(json).sort()).toEqual(['neverSeen', 'operations', 'since', 'surface']);
    expect(json.surface).toBe('proxy');
  });

  it('knows the formats by extension only', () => {
    expect(coverageFormat('a/b.MD')).toBe('markdown');
    expect(coverageFormat('x.htm')).toBe('html');
    expect(() => coverageFormat('x.xml')).toThrow(/name it \.json, \.md or \.html/);
  });
});
