import { describe, expect, it } from 'vitest';
import { runAsChild } from './foreground.ts';

describe('runAsChild', () => {
  it("resolves with the child's exit code", async () => {
    expect(await runAsChild(['-e', 'process.exit(3)'], process.env)).toBe(3);
    expect(await runAsChild(['-e', '0'], process.env)).toBe(0);
  });

  it('rejects when the child cannot be started, and leaves no signal handler behind', async () => {
    const before = process.listenerCount('SIGTERM');
    await expect(runAsChild([], process.env, '/nonexistent/node')).rejects.toThrow(/ENOENT/);
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
