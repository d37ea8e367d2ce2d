import { describe, expect, it } from 'vitest';
import { main } from './main.ts';
import { parseRetrySchedule } from './mock-command.ts';

describe('pacu mock --webhook-retry', () => {
  it('reads delays with units, bare numbers as ms, and none', () => {
    expect(parseRetrySchedule('1s,5s,30s,2m,10m')).toEqual([1000, 5000, 30_000, 120_000, 600_000]);
    expect(parseRetrySchedule('250,1.5s,1h')).toEqual([250, 1500, 3_600_000]);
    expect(parseRetrySchedule('none')).toEqual([]);
  });

  it.each(['soon', '1s,,2s', '-1s', '8d', '30d'])('refuses %s with one line and exit 2', async (value) => {
    let stderr = '';
    const exitCode = await main(['mock', '--webhook-retry', value], {
      stdout: () => {},
      stderr: (text) => {
        stderr += text;
      },
    });
    expect(exitCode).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('--webhook-retry');
  });
});
