import { describe, expect, it } from 'vitest';
import type { Report, RuleResult } from '../../suites/index.ts';
import { renderHtml } from './html-reporter.ts';
import { renderJunit } from './junit-reporter.ts';
import { renderMarkdown } from './markdown-reporter.ts';

const EXPIRED = 'HTTP 401 where 200 was wanted: the token was refused';

function failed(id: string, operation: RuleResult['operation'], reason = EXPIRED, body = '{}'): RuleResult {
  return {
    id,
    category: id.split('.')[0] as RuleResult['category'],
    operation,
    profile: 'documented',
    status: 'failed',
    runs: 1,
    durationMs: 3,
    failure: {
      id: `${id}/${operation}`,
      reason,
      request: { method: 'GET', path: '/users', headers: {} },
      response: {
        status: 401,
        headers: { 'content-type': 'application/json', 'x-request-id': 'req-42' },
        body,
      },
      curl: "curl 'http://127.0.0.1:1/v3/users'",
    },
  };
}

const ok = (id: string, operation: RuleResult['operation']): RuleResult => ({
  id,
  category: id.split('.')[0] as RuleResult['category'],
  operation,
  profile: 'documented',
  status: 'passed',
  runs: 10,
  durationMs: 5,
});

const skipped = (id: string, operation: RuleResult['operation'], reason: string): RuleResult => ({
  ...ok(id, operation),
  status: 'skipped',
  runs: 0,
  skipReason: reason,
});

const rules: RuleResult[] = [
  failed('positive.accepted', 'listUsers'),
  failed('positive.echoes-request', 'listUsers'),
  failed('positive.accepted', 'getVirtualCard', 'data.card_id is missing', 'x'.repeat(5000)),
  ok('envelope.content-type', 'getVirtualCard'),
  skipped('envelope.success-shape', 'getVirtualCard', 'needs --card-id'),
  skipped('envelope.error-shape', 'getVirtualCard', 'needs --card-id'),
  ok('auth.token-grant', 'getAccessToken'),
];

const report: Report = {
  tool: 'pacu',
  command: 'check',
  version: '0.1.0',
  target: 'http://127.0.0.1:1/v3',
  seed: 7,
  profile: 'documented',
  startedAt: '2026-11-22T12:00:00.000Z',
  durationMs: 100,
  summary: { passed: 2, failed: 3, skipped: 2 },
  rules,
};

describe('html report', () => {
  const html = renderHtml(report);

  it('shows skip reasons on the page, not only in tooltips', () => {
    expect(html).toMatch(
      /<h2>Skipped<\/h2><ul class="skips"><li><code>envelope\.success-shape<\/code>: needs --card-id \(getVirtualCard\)/,
    );
  });

  it('explains the bars and the matrix in a legend', () => {
    expect(html).toContain('The numbers after each bar are passed/failed/skipped');
    expect(html).toContain('A cell is failed when any of its rules failed');
  });

  it('links a failed cell to its failure, and that failure exists on the page', () => {
    const href = /<td class="failed"[^>]*><a href="#([^"]+)">failed<\/a><\/td>/.exec(html)?.[1];
    expect(href).toBeDefined();
    expect(html).toContain(`id="${href}"`);
  });

  it('does not call a cell passed when most of its rules were skipped', () => {
    expect(html).toMatch(/<td class="partial"[^>]*>1 passed, 2 skipped<\/td>/);
  });

  it('groups failures that share a cause, shows response headers, folds long bodies', () => {
    expect(html).toContain(`2 failures, one cause: ${EXPIRED.replace(/:/g, ':')}`);
    expect(html.match(/<article class="cause">/g)).toHaveLength(2);
    expect(html).toContain('<th>x-request-id</th><td>req-42</td>');
    expect(html).toContain('<details><summary>5000 characters</summary>');
  });
});

describe('markdown report', () => {
  const markdown = renderMarkdown(report);

  it('has a legend for the marks and the skip reasons', () => {
    expect(markdown).toContain('✅ a rule passed and none failed · ❌ a rule failed · ⏭️ every rule skipped');
    expect(markdown).toContain('- `envelope.success-shape`: needs --card-id (getVirtualCard)');
  });
});

describe('junit report', () => {
  const junit = renderJunit(report);

  it('names each testcase by rule and operation, and stamps the run', () => {
    expect(junit).toContain('<testcase classname="positive.accepted" name="positive.accepted on listUsers"');
    expect(junit).toMatch(/<testsuites [^>]*timestamp="2026-11-22T12:00:00.000Z"/);
    expect(junit).toMatch(/<testsuite [^>]*timestamp="2026-11-22T12:00:00.000Z"/);
  });
});
