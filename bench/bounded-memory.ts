// What remembering costs once a watcher's memory is full (the exchange state keeps 100,000
// references): suites/bounded-map.ts's two memories against the Map used as a queue they replaced
// (delete the first key, set the new one), side by side in one run. `npx tsx bench/bounded-memory.ts`
import { boundedMemory, boundedQueue } from '../suites/judge/bounded-map.ts';

const LIMIT = 100_000;
const ROUNDS = 6;
const PER_ROUND = 50_000;

function queueMap(limit: number): {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
} {
  const map = new Map<string, string>();
  return {
    get: (key) => map.get(key),
    set(key, value) {
      map.delete(key);
      map.set(key, value);
      if (map.size > limit) map.delete(map.keys().next().value as string);
    },
  };
}

/** Microseconds per new reference remembered, per round (the first rounds fill the memory). */
function run(memory: {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}): number[] {
  const out: number[] = [];
  let next = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    for (let index = 0; index < PER_ROUND; index++, next++) {
      const key = `B-ref-${next}`;
      if (memory.get(key) === undefined) memory.set(key, `tx-${next}`);
    }
    out.push(((performance.now() - started) * 1000) / PER_ROUND);
  }
  return out;
}

const queue = run(queueMap(LIMIT));
const bounded = run(boundedMemory<string, string>(LIMIT));
const ring = run(boundedQueue<string, string>(LIMIT));
const full = (figures: number[]): number =>
  figures.slice(2).reduce((sum, value) => sum + value, 0) / (ROUNDS - 2);
const show = (figures: number[]): string => figures.map((value) => value.toFixed(2)).join(' ');
console.log(`us per reference remembered, rounds of ${PER_ROUND} (the memory is full from round 3):`);
console.log(`  Map as a queue   ${show(queue)}`);
console.log(`  boundedMemory    ${show(bounded)}`);
console.log(`  boundedQueue     ${show(ring)}`);
console.log(`  once full: ${(full(queue) / full(bounded)).toFixed(0)}x less time with boundedMemory`);
console.log(
  `  once full: boundedQueue takes ${(full(ring) / full(bounded)).toFixed(2)} of boundedMemory's time`,
);
