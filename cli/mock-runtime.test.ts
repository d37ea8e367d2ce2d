import { describe, expect, it } from 'vitest';
import { MOCK_NODE_FLAGS, mockRelaunchArgs } from './mock-runtime.ts';

describe('mockRelaunchArgs', () => {
  it('relaunches `pacu mock` and `pacu proxy` with the sized V8 pool where Node would start more helpers than spare CPUs', () => {
    expect(mockRelaunchArgs(['mock', '--json'], [], '', 1, undefined)).toEqual([...MOCK_NODE_FLAGS]);
    expect(mockRelaunchArgs(['proxy', '--upstream', 'http://127.0.0.1:1/v3'], [], '', 2)).toEqual([
      ...MOCK_NODE_FLAGS,
    ]);
    expect(mockRelaunchArgs(['mock'], ['--import', 'tsx'], '', 4)).toEqual([
      '--import',
      'tsx',
      ...MOCK_NODE_FLAGS,
    ]);
  });

  it('runs in this process otherwise', () => {
    // Five CPUs or more: Node's default of four helpers is no more than the spare CPUs.
    expect(mockRelaunchArgs(['mock'], [], '', 5)).toBeUndefined();
    // Other commands are short runs; help is printed, not served.
    expect(mockRelaunchArgs(['check', '--target', 'x'], [], '', 1)).toBeUndefined();
    expect(mockRelaunchArgs(['mock', '--help'], [], '', 1)).toBeUndefined();
    expect(mockRelaunchArgs(['proxy', '-h'], [], '', 1)).toBeUndefined();
    expect(mockRelaunchArgs(['help', 'mock'], [], '', 1)).toBeUndefined();
    // A pool size chosen already (also how the relaunched child knows not to relaunch) is kept.
    expect(mockRelaunchArgs(['mock'], ['--v8-pool-size=0'], '', 1)).toBeUndefined();
    expect(mockRelaunchArgs(['mock'], [], '--max-old-space-size=512 --v8-pool-size=2', 1)).toBeUndefined();
    // A replica of a shared store serves in the process its supervisor started (no launcher between).
    expect(
      mockRelaunchArgs(['mock', '--store', 'postgres://u@h:5432/d'], [], '', 1, undefined),
    ).toBeUndefined();
    expect(mockRelaunchArgs(['mock', '--store=postgresql://u@h/d'], [], '', 1, undefined)).toBeUndefined();
    expect(mockRelaunchArgs(['mock', '--json'], [], '', 1, 'postgres://u@h/d')).toBeUndefined();
    expect(mockRelaunchArgs(['mock', '--store', 'memory:'], [], '', 1, 'postgres://u@h/d')).toEqual([
      ...MOCK_NODE_FLAGS,
    ]);
    // Under a debugger, the debugged process serves.
    expect(mockRelaunchArgs(['mock'], ['--inspect-brk'], '', 1)).toBeUndefined();
    expect(mockRelaunchArgs(['mock'], [], '--inspect=0', 1)).toBeUndefined();
  });
});
