import { describe, expect, it } from 'vitest';
import { pendingOnce, readOnce } from './index.ts';

describe('pendingOnce', () => {
  it('starts the work once for every caller of a key, and again after it failed', async () => {
    const cache = new Map<string, Promise<number>>();
    let started = 0;
    const work = (fail: boolean) => () => {
      started++;
      return fail ? Promise.reject(new Error('lost')) : Promise.resolve(started);
    };
    const first = pendingOnce(cache, 'a', work(true));
    expect(pendingOnce(cache, 'a', work(false))).toBe(first);
    await expect(first).rejects.toThrow('lost');
    expect(await pendingOnce(cache, 'a', work(false))).toBe(2);
    expect(await pendingOnce(cache, 'a', work(false))).toBe(2);
    expect(started).toBe(2);
  });
});

describe('readOnce', () => {
  it('reads a key once and hands every later caller what the first read made', () => {
    const cache = new WeakMap<object, number[]>();
    const [a, b] = [{}, {}];
    let reads = 0;
    const read = () => [++reads];
    const first = readOnce(cache, a, read);
    expect(readOnce(cache, a, read)).toBe(first);
    expect(readOnce(cache, b, read)).toEqual([2]);
    expect(reads).toBe(2);
  });
});
