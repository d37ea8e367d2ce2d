import type { Report, RuleResult } from '../../suites/index.ts';
import { failedByFault, failsRun, type GateOptions, isClientFinding } from './fault-split.ts';
import { hasSeed } from './matrix.ts';
import { replayCommand, reproduceNote } from './replay-line.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly what must go.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

export const escapeXml = (text: string): string =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // XML 1.0 cannot carry most control characters at all, escaped or not.
    .replace(CONTROL_CHARACTERS, '');

function evidence(rule: RuleResult, report: Report): string {
  const failure = rule.failure;
  if (!failure) return '';
  return [
    `failure id: ${failure.id}`,
    `request: ${failure.request.method} ${failure.request.path}`,
    ...(failure.request.body !== undefined ? [`request body: ${failure.request.body}`] : []),
    ...(failure.response
      ? [`response: HTTP ${failure.response.status}`, `response body: ${failure.response.body}`]
      : []),
    `curl: ${failure.curl}`,
    ...[replayCommand(rule, report)]
      .filter((line): line is string => line !== undefined)
      .map((line) => `replay: ${line}`),
    reproduceNote(report),
  ].join('\n');
}

function testcase(rule: RuleResult, report: Report, gate: GateOptions): string {
  const open = `    <testcase classname="${escapeXml(rule.id)}" name="${escapeXml(`${rule.id} on ${rule.operation}`)}" time="${(rule.durationMs / 1000).toFixed(3)}"`;
  if (rule.status === 'skipped')
    return `${open}>\n      <skipped message="${escapeXml(rule.skipReason ?? '')}"/>\n    </testcase>`;
  // A finding about the client's own request fails no gate (a proxy's exits 0): told, not failed.
  if (isClientFinding(rule) && !gate.clientFails)
    return `${open}>\n      <system-out>${escapeXml(`your client's own request: ${rule.failure?.reason ?? ''}\n${evidence(rule, report)}`)}</system-out>\n    </testcase>`;
  if (rule.status === 'failed') {
    return `${open}>\n      <failure message="${escapeXml(rule.failure?.reason ?? '')}" type="${escapeXml(rule.category)}">${escapeXml(evidence(rule, report))}</failure>\n    </testcase>`;
  }
  return `${open}/>`;
}

/** JUnit XML: one testsuite per rule, one testcase per rule and operation; failures carry the evidence. */
export function renderJunit(report: Report, gate: GateOptions = {}): string {
  const ids = [...new Set(report.rules.map((rule) => rule.id))];
  const suites = ids.map((id) => {
    const rules = report.rules.filter((rule) => rule.id === id);
    const count = (status: RuleResult['status']): number =>
      rules.filter((rule) => rule.status === status && (status !== 'failed' || failsRun(rule, gate))).length;
    const time = rules.reduce((sum, rule) => sum + rule.durationMs, 0) / 1000;
    return [
      `  <testsuite name="${escapeXml(id)}" tests="${rules.length}" failures="${count('failed')}" errors="0" skipped="${count('skipped')}" time="${time.toFixed(3)}" timestamp="${escapeXml(report.startedAt)}">`,
      ...rules.map((rule) => testcase(rule, report, gate)),
      '  </testsuite>',
    ].join('\n');
  });
  const { passed, failed: all, skipped } = report.summary;
  const failed = failedByFault(report, gate).failing.length;
  const tests = passed + all + skipped;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="pacu ${report.command} ${escapeXml(report.target)} ${hasSeed(report) ? ` (seed ${report.seed})` : ''}" tests="${tests}" failures="${failed}" errors="0" skipped="${skipped}" time="${(report.durationMs / 1000).toFixed(3)}" timestamp="${escapeXml(report.startedAt)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
