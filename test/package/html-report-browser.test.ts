// The HTML report in a real browser: Debian's chromium (installed by .ci/run when absent) driven by
// playwright-core, which never downloads a browser of its own. The screenshot stays at
// test/artifacts/html-report.png for people to look at.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../cli/reporters/html-reporter.ts';
import { startMock } from '../../mock/index.ts';
import { startProxy } from '../../proxy/index.ts';
import type { Report } from '../../suites/index.ts';
import { checkTestProvider } from '../providers/run-against.ts';

const CHROMIUM = process.env.PACU_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const PAGE = path.join(ARTIFACTS, 'html-report.html');
const SCREENSHOT = path.join(ARTIFACTS, 'html-report.png');
const PROXY_PAGE = path.join(ARTIFACTS, 'proxy-report.html');

/**
 * What `pacu proxy` reports after a client's own bad requests (no token, bad JSON, a missing
 * field, an unknown path) beside good ones, with a pacu mock as the provider: findings that are
 * the client's, which do not fail the proxy's gate.
 */
async function proxyReportOfClientMistakes(): Promise<Report> {
  const mock = await startMock({ log: () => {} });
  const proxy = await startProxy({ upstream: mock.url, log: () => {} });
  try {
    const { clientId, clientSecret } = mock.demoClient;
    const send = (path: string, init: RequestInit = {}) => fetch(`${proxy.url}${path}`, init);
    const grant = await send('/auth/token', {
      method: 'POST',
      headers: { authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'card,us_account' }),
    });
    const token = ((await grant.json()) as { data: { access_token: string } }).data.access_token;
    const bearer = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    await send('/users', { headers: bearer });
    await send('/users');
    await send('/payments/usd/direct', { method: 'POST', headers: bearer, body: '{"amount": 1,' });
    await send('/payments/usd/direct', { method: 'POST', headers: bearer, body: '{"amount": 1}' });
    await send('/refunds', { headers: bearer });
    return proxy.report();
  } finally {
    await proxy.close();
    await mock.close();
  }
}

let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does) or set PACU_CHROMIUM`);
  // A provider that breaks one rule: the report has failures, passes and skips side by side.
  const report = await checkTestProvider('different', 'documented', 'positive.echoes-request');
  expect(report.summary.failed).toBeGreaterThan(0);
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(PAGE, renderHtml(report));
  writeFileSync(PROXY_PAGE, renderHtml(await proxyReportOfClientMistakes()));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
});

describe('the HTML report in chromium', () => {
  it('opens with the verdict, filters by status, operation and text, and leads from a cell to its failure', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(pathToFileURL(PAGE).href);
    const verdict = page.locator('.verdict');
    await expect(verdict.innerText()).resolves.toMatch(/^FAILED/);
    // The verdict is the first thing on the page, above the fold.
    expect((await verdict.boundingBox())?.y ?? 1e9).toBeLessThan(200);

    const rows = page.locator('#results tbody tr');
    const total = await rows.count();
    const visible = () => page.locator('#results tbody tr:visible').count();
    await expect(visible()).resolves.toBe(total);
    await expect(page.locator('#shown').innerText()).resolves.toBe(`${total} of ${total} checks shown`);

    // Only failures: untick passed and skipped.
    await page.locator('input[name=status][value=passed]').uncheck();
    await page.locator('input[name=status][value=skipped]').uncheck();
    const failedRows = await visible();
    expect(failedRows).toBeGreaterThan(0);
    expect(failedRows).toBeLessThan(total);
    for (const status of await page.locator('#results tbody tr:visible td:first-child').allInnerTexts())
      expect(status).toBe('failed');
    await expect(page.locator('#shown').innerText()).resolves.toBe(`${failedRows} of ${total} checks shown`);

    // One operation: every visible row, matrix row and failure is that operation's.
    await page.locator('input[name=status][value=passed]').check();
    await page.locator('select[name=operation]').selectOption('listUsers');
    for (const operation of await page.locator('#results tbody tr:visible td:nth-child(3)').allInnerTexts())
      expect(operation).toBe('listUsers');
    await expect(page.locator('table.matrix tr[data-group]:visible').count()).resolves.toBe(1);
    for (const failure of await page.locator('details.failure:visible summary code').allInnerTexts())
      expect(failure).toBe('listUsers');

    // Search narrows to what names the text; reset shows everything again.
    await page.locator('button[type=reset]').click();
    await page.locator('input[name=q]').fill('echoes-request');
    for (const rule of await page.locator('#results tbody tr:visible td:nth-child(2)').allInnerTexts())
      expect(rule).toBe('positive.echoes-request');
    await page.locator('button[type=reset]').click();
    // The form resets after its reset event: the filters apply on the next tick.
    await expect.poll(visible).toBe(total);

    // A failed rule in a matrix cell leads to its failure, headed by rule and operation, in view.
    const failedLink = page.locator('table.matrix li[data-status=failed] a').first();
    const target = await failedLink.getAttribute('href');
    expect(target).toMatch(/^#failure-/);
    await failedLink.click();
    expect(new URL(page.url()).hash).toBe(target);
    const failure = page.locator(`details${target ?? ''}`);
    await expect(failure.locator('summary strong').innerText()).resolves.toBe('positive.echoes-request');
    // In view, and not under the sticky filter bar.
    const box = await failure.boundingBox();
    const bar = await page.locator('#filters').boundingBox();
    expect(box?.y ?? -1).toBeGreaterThanOrEqual((bar?.y ?? 0) + (bar?.height ?? 0) - 1);
    expect(box?.y ?? 1e9).toBeLessThan(900);
    // Failures collapse.
    await failure.locator('summary').click();
    await expect(failure.locator('p.reason').isVisible()).resolves.toBe(false);

    await page.goto(pathToFileURL(PAGE).href);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(existsSync(SCREENSHOT)).toBe(true);
    await page.close();
  });

  it("tells a proxy's findings about the client's own requests apart from the provider's: no red FAILED when only the client erred", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(pathToFileURL(PROXY_PAGE).href);
    const verdict = page.locator('.verdict');
    const text = await verdict.innerText();
    // The proxy exits 0 here (its gate is the provider's findings): its banner must not say FAILED.
    expect(text).not.toMatch(/FAILED/);
    expect(text).toMatch(/^PASSED/);
    expect(text).toMatch(/the provider: 0 failed/);
    expect(text).toMatch(/your client: [1-9]\d* findings? about its own requests/);
    await expect(verdict.getAttribute('class')).resolves.toContain('client');
    const colour = await page.evaluate(
      "getComputedStyle(document.querySelector('.verdict')).backgroundColor",
    );
    expect(colour).not.toBe('rgb(198, 40, 40)');
    // Each client finding says whose it is where it is listed.
    for (const summary of await page.locator('details.failure summary').allInnerTexts())
      expect(summary).toMatch(/your client/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'proxy-report-banner.png') });
    await page.close();
  });

  it('fits the operations × categories matrix in a 1280 px laptop window: no column cut off', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(pathToFileURL(PAGE).href);
    const matrix = page.locator('table.matrix');
    await matrix.scrollIntoViewIfNeeded();
    const headers = await matrix
      .locator('tr')
      .first()
      .locator('th')
      .evaluateAll((cells) =>
        cells.map((cell) => ({ text: cell.textContent, right: cell.getBoundingClientRect().right })),
      );
    expect(headers.map((header) => header.text)).toContain('lifecycle');
    expect(headers.filter((header) => header.right > 1280)).toEqual([]);
    // Expressions run in the page (this file is type-checked without the DOM's names).
    await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(1280);
    // What the laptop shows: the matrix's top just under the sticky filter bar, the window's width.
    await page.evaluate(
      "scrollBy(0, document.querySelector('table.matrix').getBoundingClientRect().top - document.getElementById('filters').getBoundingClientRect().height - 48)",
    );
    await page.screenshot({ path: path.join(ARTIFACTS, 'html-report-matrix-1280.png') });
    await page.close();
  });
});
