// The HTML report in a real browser: Debian's chromium (installed by .ci/run when absent) driven by
// playwright-core, which never downloads a browser of its own. The screenshot stays at
// test/artifacts/html-report.png for people to look at.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../cli/reporters/html-reporter.ts';
import { checkTestProvider } from '../providers/run-against.ts';

const CHROMIUM = process.env.PACU_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const PAGE = path.join(ARTIFACTS, 'html-report.html');
const SCREENSHOT = path.join(ARTIFACTS, 'html-report.png');

let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does) or set PACU_CHROMIUM`);
  // A provider that breaks one rule: the report has failures, passes and skips side by side.
  const report = await checkTestProvider('different', 'documented', 'positive.echoes-request');
  expect(report.summary.failed).toBeGreaterThan(0);
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(PAGE, renderHtml(report));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
});

describe('the HTML report in chromium', () => {
  it('renders the matrix, leads from a failed cell to its failure, and keeps a screenshot', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(pathToFileURL(PAGE).href);
    const matrix = page.locator('table.matrix');
    await expect(matrix.isVisible()).resolves.toBe(true);
    // Nine operations, one header row.
    await expect(matrix.locator('tr').count()).resolves.toBeGreaterThanOrEqual(10);
    const failedCell = matrix.locator('td.failed a').first();
    const target = await failedCell.getAttribute('href');
    expect(target).toMatch(/^#failure-/);
    await failedCell.click();
    expect(new URL(page.url()).hash).toBe(target);
    const failure = page.locator(`section${target ?? ''}`);
    await expect(failure.isVisible()).resolves.toBe(true);
    await expect(failure.locator('h4').innerText()).resolves.toContain('positive.echoes-request');
    // The failure the link leads to is scrolled into the window, not somewhere below it.
    const box = await failure.boundingBox();
    expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
    expect(box?.y ?? 1e9).toBeLessThan(900);
    await page.goto(pathToFileURL(PAGE).href);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(existsSync(SCREENSHOT)).toBe(true);
  });
});
