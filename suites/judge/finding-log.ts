import type { Redactor } from '../../http/index.ts';
import type { ExchangeFinding } from './exchange-judge.ts';

/** Findings kept for `findings()` and a report; later ones are counted, not kept. */
export const KEPT_FINDINGS = 10_000;

/** Where the observers of traffic file their findings. */
export interface FindingLog {
  report(finding: ExchangeFinding): void;
  /** Every finding kept so far, oldest first, redacted. */
  findings(): ExchangeFinding[];
  /** Findings counted but not kept (past {@link KEPT_FINDINGS}). */
  readonly dropped: number;
}

/** A finding log; `onFinding` hears each one as it is filed, redacted. */
export function createFindingLog(
  redactor: Redactor,
  onFinding?: (finding: ExchangeFinding) => void,
): FindingLog {
  const found: ExchangeFinding[] = [];
  let dropped = 0;
  return {
    report(finding) {
      // Kept redacted: a secret the redactor forgets later (it keeps the newest it learned) stays
      // hidden in a finding kept since; redacted again when read, for the secrets learned since.
      const shown = redactor.redact(finding);
      if (found.length < KEPT_FINDINGS) found.push(shown);
      else dropped += 1;
      onFinding?.(shown);
    },
    findings: () => redactor.redact(found),
    get dropped() {
      return dropped;
    },
  };
}
