import type { LearnedChoice, LearnedNote } from '../../types.ts';

/** Collects what learning found, choice by choice, for the learned report. */
export interface ReportDraft {
  /** A choice the recording showed, from these exchanges (numbered from 1). */
  learned(choice: string, about: string, value: unknown, shown: string, entries: readonly number[]): void;
  /**
   * A choice the recording showed nothing of, or too little or disagreeing evidence of (`entries`,
   * and `shown` says why): the description's freedom holds, as pacu's decision.
   */
  kept(choice: string, about: string, value: unknown, shown: string, entries?: readonly number[]): void;
  /** A recorded answer that contradicts the description: reported, never learned. */
  contradiction(entries: readonly number[], what: string): void;
  /** Something the recording showed that the mock does not reproduce. */
  unlearned(entries: readonly number[], what: string): void;
  readonly choices: LearnedChoice[];
  readonly contradictions: LearnedNote[];
  readonly notes: LearnedNote[];
}

const sorted = (entries: readonly number[]): number[] => [...new Set(entries)].sort((a, b) => a - b);

export function reportDraft(): ReportDraft {
  const choices: LearnedChoice[] = [];
  const contradictions: LearnedNote[] = [];
  const notes: LearnedNote[] = [];
  return {
    choices,
    contradictions,
    notes,
    learned(choice, about, value, shown, entries) {
      choices.push({ choice, about, value, shown, from: 'recording', entries: sorted(entries) });
    },
    kept(choice, about, value, shown, entries = []) {
      choices.push({ choice, about, value, shown, from: 'default', entries: sorted(entries) });
    },
    contradiction(entries, what) {
      contradictions.push({ entries: sorted(entries), what });
    },
    unlearned(entries, what) {
      notes.push({ entries: sorted(entries), what });
    },
  };
}
