import { describe, expect, it } from 'vitest';
import { createPipeline, type RequestEnd } from './pipeline.ts';

const event = (seq: number): RequestEnd => ({
  seq,
  startedAt: 0,
  request: {
    method: 'GET',
    path: '/v3/users',
    query: new URLSearchParams(),
    headers: {},
    body: Buffer.alloc(0),
  },
  operationId: 'listUsers',
  clientId: undefined,
  status: 200,
  fault: undefined,
  answer: { headers: {}, text: '', bytes: 0, whole: true, repeated: false, durationMs: 1, error: undefined },
});

describe('createPipeline', () => {
  it('releases the answers of a turn after the flush, and tells settled after the releases', async () => {
    const seen: string[] = [];
    const pipeline = createPipeline(
      [
        {
          end: (e) => seen.push(`end ${e.seq}`),
          flush: () => {
            seen.push('flush');
            return true;
          },
        },
        { settled: (e) => seen.push(`settled ${e.seq}`) },
      ],
      () => {},
    );
    expect(pipeline.holdsAnswers).toBe(true);
    pipeline.end(event(1), () => seen.push('release 1'));
    pipeline.end(event(2), () => seen.push('release 2'));
    expect(seen).toEqual(['end 1', 'end 2']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['end 1', 'end 2', 'flush', 'release 1', 'release 2', 'settled 1', 'settled 2']);
  });

  it('releases at once without an observer that flushes, and close() tells what still waits', async () => {
    const seen: string[] = [];
    const pipeline = createPipeline([{ settled: (e) => seen.push(`settled ${e.seq}`) }], () => {});
    expect(pipeline.holdsAnswers).toBe(false);
    pipeline.end(event(1), () => seen.push('release 1'));
    expect(seen).toEqual(['release 1']);
    await pipeline.close();
    expect(seen).toEqual(['release 1', 'settled 1']);
  });

  it('logs an observer that throws and still tells the others', () => {
    const logged: string[] = [];
    const seen: number[] = [];
    const pipeline = createPipeline(
      [
        {
          end: () => {
            throw new Error('boom');
          },
        },
        { end: (e) => seen.push(e.seq) },
      ],
      (line) => logged.push(line),
    );
    pipeline.end(event(7));
    expect(seen).toEqual([7]);
    expect(logged[0]).toMatch(/an observer of the request pipeline failed: Error: boom/);
  });
});
