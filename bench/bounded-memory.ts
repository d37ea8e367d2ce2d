// What remembering costs once a watcher's memory is full (the exchange state keeps 100,000
// references): suites/bounded-map.ts against the Map used as a queue it replaced (delete the first
// key, set the new one), side by side in one run. `npx tsx bench/bounded-memory.ts`
import { boundedMemory } from '../suites/judge/bounded-map.ts';

const LIMIT = 100_000;
const ROUNDS = 6;
const PER_ROUND = 50_000;

function queueMap(limit: number): { has(key: string): boolean; set(key: string, value: string): void } {
  const map = new Map<string, string>();
  return {
    has: (key) => map.has(key),
    set(key, value) {
      map.delete(key);
      map.set(key, value);
      if (map.size > limit) map.delete(map.keys().next().value as string);
    },
  };
}

/** Microseconds per new reference remembered, per round (the first rounds fill the memory). */
function run(memory: { has(key: string): boolean; set(key: string, value: string): void }): number[] {
  const out: number[] = [];
  let next = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    for (let index = 0; index < PER_ROUND; index++, next++) {
      const key = `B-ref-${next}`;
      if (!memory.has(key)) memory.set(key, `tx-${next}`);
    }
    out.push(((performance.now() - started) * 1000) / PER_ROUND);
  }
  return out;
}

const queue = run(queueMap(LIMIT));
const bounded = run(boundedMemory<string, string>(LIMIT));
const full = (figures: number[]): number =>
  figures.slice(2).reduce((sum, value) => sum + value, 0) / (ROUNDS - 2);
const show = (figures: number[]): string => figures.map((value) => value.toFixed(2)).join(' ');
console.log(`us per reference remembered, rounds of ${PER_ROUND} (the memory is full from round 3):`);
console.log(`  Map as a queue   ${show(queue)}`);
console.log(`  boundedMemory    ${show(bounded)}`);
console.log(`  once full: ${(full(queue) / full(bounded)).toFixed(0)}x less time with boundedMemory`);
