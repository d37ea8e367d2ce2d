import { describe, expect, it } from 'vitest';
import { createClock } from './clock.ts';

describe('manual clock', () => {
  it('runs due tasks in time order, each with the clock at its own time', () => {
    const clock = createClock('manual', 1000);
    const ran: Array<[number, number]> = [];
    for (const at of [5000, 3000, 4000, 9000]) clock.schedule(at, (due) => ran.push([due, clock.now()]));
    expect(clock.advance(3500)).toBe(4500);
    expect(ran).toEqual([
      [3000, 3000],
      [4000, 4000],
    ]);
    clock.advance(1000);
    expect(ran.map(([due]) => due)).toEqual([3000, 4000, 5000]);
    expect(clock.pending()).toBe(1);
    clock.clear();
    clock.advance(10_000);
    expect(ran).toHaveLength(3);
  });

  it('refuses to advance a real clock', () => {
    expect(() => createClock('real').advance(1)).toThrow('manual');
  });
});

describe('real clock', () => {
  it('runs a task when its time comes', async () => {
    const clock = createClock('real');
    const done = new Promise<number>((resolve) => clock.schedule(Date.now() + 20, resolve));
    expect(await done).toBeLessThanOrEqual(Date.now());
    clock.clear();
  });
});
