import { describe, expect, it } from 'vitest';
import type { RuleResult } from '../../suites/index.ts';
import { replayCommand } from './replay-line.ts';

const failed: RuleResult = {
  id: 'envelope.success-shape',
  category: 'envelope',
  operation: 'listUsers',
  profile: 'documented',
  status: 'failed',
  runs: 3,
  durationMs: 1,
  failure: {
    id: 'envelope.success-shape/listUsers/42/0:1',
    reason: 'data.items is missing',
    request: { method: 'GET', path: '/users', headers: {} },
    curl: "curl 'http://127.0.0.1:1/v3/users'",
  },
};

describe('replayCommand', () => {
  it('names the failure id of a failed check rule', () => {
    expect(replayCommand(failed)).toBe('pacu check --replay envelope.success-shape/listUsers/42/0:1');
  });

  it('offers no replay for a contract interaction or a rule that passed', () => {
    expect(replayCommand({ ...failed, category: 'contract' })).toBeUndefined();
    const { failure: _failure, ...passed } = failed;
    expect(replayCommand({ ...passed, status: 'passed' })).toBeUndefined();
  });
});
