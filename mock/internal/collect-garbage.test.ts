import { setImmediate as turn } from 'node:timers/promises';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from './collect-garbage.ts';

describe('collectGarbage', () => {
  it('collects what nothing holds, and leaves gc() hidden from later contexts', async () => {
    let held: object | undefined = { payload: new Array(1000).fill('x') };
    const ref = new WeakRef(held);
    held = undefined;
    // A WeakRef's target stays alive until the job that made it ends.
    await turn();
    collectGarbage();
    expect(ref.deref()).toBeUndefined();
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
