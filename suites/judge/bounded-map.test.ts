import { describe, expect, it } from 'vitest';
import { boundedMemory, boundedQueue } from './bounded-map.ts';

describe('boundedMemory', () => {
  it('keeps at most max entries, forgetting the least recently used first', () => {
    const memory = boundedMemory<string, number>(3);
    for (const [index, key] of ['a', 'b', 'c'].entries()) memory.set(key, index);
    expect(memory.get('a')).toBe(0);
    memory.set('d', 3);
    expect(memory.size).toBe(3);
    expect(memory.get('b')).toBeUndefined();
    expect([...memory.keys()].sort()).toEqual(['a', 'c', 'd']);
    for (let index = 0; index < 1000; index++) memory.set(`k${index}`, index);
    expect(memory.size).toBe(3);
    expect(memory.get('k999')).toBe(999);
  });
});

describe('boundedQueue', () => {
  it('keeps at most max entries, forgetting the first remembered first, however often it was read', () => {
    const memory = boundedQueue<string, number>(3);
    for (const [index, key] of ['a', 'b', 'c'].entries()) memory.set(key, index);
    expect(memory.get('a')).toBe(0);
    memory.set('b', 10);
    memory.set('d', 3);
    expect(memory.size).toBe(3);
    expect(memory.get('a')).toBeUndefined();
    expect([memory.get('b'), memory.get('c'), memory.get('d')]).toEqual([10, 2, 3]);
    for (let index = 0; index < 1000; index++) memory.set(`k${index % 500}`, index);
    expect(memory.size).toBe(3);
    expect([memory.get('k497'), memory.get('k498'), memory.get('k499')]).toEqual([997, 998, 999]);
  });

  it('hands back what a key had, or remembers the value it is given', () => {
    const memory = boundedQueue<string, number>(2);
    expect(memory.getOrRemember('a', 1)).toBeUndefined();
    expect(memory.getOrRemember('a', 2)).toBe(1);
    expect(memory.getOrRemember('b', 3)).toBeUndefined();
    expect(memory.getOrRemember('c', 4)).toBeUndefined();
    expect([memory.get('a'), memory.get('b'), memory.get('c'), memory.size]).toEqual([undefined, 3, 4, 2]);
  });
});
