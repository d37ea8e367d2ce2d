import { describe, expect, it } from 'vitest';
import type { Report, RuleResult } from '../../suites/index.ts';
import { summaryLine } from './console-reporter.ts';
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

  it('opens with the verdict: failed, how many, and how many against the description', () => {
    expect(html).toMatch(
      /<div class="verdict failed" role="status"><strong>FAILED<\/strong>3 of 7 checks failed \(3 against the description, 0 against pacu's own decisions\)/,
    );
  });

  it('says nothing was checked when every check was skipped, never passed', () => {
    const empty = renderHtml({
      ...report,
      summary: { passed: 0, failed: 0, skipped: 1 },
      rules: [skipped('envelope.success-shape', 'getVirtualCard', 'needs --card-id')],
    });
    expect(empty).toContain('<div class="verdict empty" role="status"><strong>NOTHING CHECKED</strong>');
  });

  it('labels a failure of a decision strict in the verdict and on the failure', () => {
    const base = failed('envelope.success-shape', 'getAccessToken', 'token_type must be one of Bearer');
    const decided: RuleResult = {
      ...base,
      failure: { ...(base.failure as NonNullable<RuleResult['failure']>), profile: 'strict' },
    };
    const page = renderHtml({
      ...report,
      profile: 'strict',
      rules: [decided],
      summary: { passed: 0, failed: 1, skipped: 0 },
    });
    expect(page).toContain("(0 against the description, 1 against pacu's own decisions)");
    expect(page).toContain('<span class="badge profile-strict">strict</span>');
  });

  it('lists the skip reasons on the page, not only in tooltips', () => {
    expect(html).toContain('<li><code>envelope.success-shape</code>: needs --card-id (getVirtualCard)</li>');
  });

  it('lists every rule inside its matrix cell, a failed one linking to its failure, named without its column', () => {
    const href =
      /<li data-status="failed"[^>]*><span class="s-failed">✗<\/span> <a href="#([^"]+)" title="positive\.accepted">accepted<\/a>/.exec(
        html,
      )?.[1];
    expect(href).toBeDefined();
    expect(html).toContain(`id="${href}"`);
    expect(html).toMatch(/<td class="partial"><ul><li data-status="passed"/);
  });

  it('heads each failure by rule and operation, with its reason, time, cause siblings, headers and folded bodies', () => {
    expect(html).toMatch(
      /<summary><strong>positive\.accepted<\/strong> on <code>listUsers<\/code> <span class="badge profile-documented">documented<\/span> <span class="time">3 ms, 1 runs<\/span><\/summary>\n<p class="reason">HTTP 401/,
    );
    expect(html).toContain(
      'Same cause as <a href="#failure-positive-echoes-request-listUsers">positive.echoes-request on listUsers</a>',
    );
    expect(html).toContain('<th>x-request-id</th><td>req-42</td>');
    expect(html).toContain('<details><summary>5000 characters</summary>');
  });

  it('has filters for status, category, operation and profile, and a search box', () => {
    for (const name of ['status', 'category', 'operation', 'profile', 'q'])
      expect(html).toContain(`name="${name}"`);
    expect(html).toContain('<option value="listUsers">listUsers</option>');
  });

  it('heads a webhooks report by events, not operations', () => {
    expect(renderHtml({ ...report, command: 'webhooks check' })).toContain('Events × categories');
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

describe("a proxy's findings about the client's own requests (issue 39)", () => {
  const mixed: Report = {
    ...report,
    command: 'proxy',
    summary: { passed: 1, failed: 2, skipped: 0 },
    rules: [
      {
        ...failed(
          'client.request-shape',
          'usdTransfer',
          'your client: the usdTransfer request body is not JSON',
        ),
        category: 'client',
      },
      failed('envelope.success-shape', 'listUsers', 'the provider: data.items is missing'),
      ok('client.operation', 'listUsers'),
    ],
  };
  const clientOnly: Report = {
    ...mixed,
    summary: { passed: 1, failed: 1, skipped: 0 },
    rules: [mixed.rules[0] as RuleResult, ok('client.operation', 'listUsers')],
  };

  it('the console summary counts the provider failures as failed and the client findings apart', () => {
    expect(summaryLine(mixed)).toMatch(/^1 passed, 1 failed, 1 about your client's own requests, 0 skipped/);
    expect(summaryLine(clientOnly)).toMatch(
      /^1 passed, 0 failed, 1 about your client's own requests, 0 skipped/,
    );
  });

  it('the banner is red only for the provider, and names the client findings either way', () => {
    expect(renderHtml(mixed)).toMatch(
      /<strong>FAILED<\/strong>1 of 3 checks failed \(1 against the description, 0 against pacu's own decisions\) · your client: 1 finding about its own requests/,
    );
    expect(renderHtml(clientOnly)).toMatch(
      /<div class="verdict passed client" role="status"><strong>PASSED<\/strong>the provider: 0 failed/,
    );
  });

  it('markdown heads the run by the provider, JUnit fails only the provider', () => {
    expect(renderMarkdown(clientOnly)).toMatch(
      /^## pacu proxy: passed, 1 about your client's own requests\n/,
    );
    expect(renderMarkdown(clientOnly)).toContain(
      "### ⚠️ `client.request-shape` on `usdTransfer`: your client's own request",
    );
    const junit = renderJunit(mixed);
    expect(junit).toMatch(/<testsuites [^>]*tests="3" failures="1"/);
    expect(junit).toContain('<system-out>your client&apos;s own request'.replace('&apos;', "'"));
  });

  it('under --fail-on client the client findings fail the run, and every report says so', () => {
    const gate = { clientFails: true };
    expect(summaryLine(clientOnly, gate)).toMatch(
      /^1 passed, 1 failed, 1 about your client's own requests \(failing the run: --fail-on client\)/,
    );
    expect(renderHtml(clientOnly, gate)).toMatch(
      /<div class="verdict failed" role="status"><strong>FAILED<\/strong>1 of 2 checks failed: the provider 0, your client 1/,
    );
    expect(renderJunit(clientOnly, gate)).toMatch(/<testsuites [^>]*failures="1"/);
    expect(renderMarkdown(clientOnly, gate)).toMatch(
      /^## pacu proxy: 1 failed, 1 about your client's own requests\n/,
    );
  });
});
