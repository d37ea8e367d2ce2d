import type { ExchangeFinding } from '../suites/index.ts';

/** One stderr line for a finding of watched traffic (pacu proxy, pacu mock --findings). */
export function findingLine(finding: ExchangeFinding): string {
  const { request, response, seq } = finding.exchange;
  return `pacu: ${finding.side} ${finding.rule}${finding.operation ? ` on ${finding.operation}` : ''} (#${seq} ${request.method} ${request.path} → ${response.status}): ${finding.reason}`;
}
