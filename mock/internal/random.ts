import { randomFillSync } from 'node:crypto';

/** A seeded generator of floats in [0, 1): mulberry32, small and good enough for seed data. */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

export function digits(random: Random, count: number): string {
  let out = '';
  for (let index = 0; index < count; index++) out += Math.floor(random() * 10);
  return out;
}

export function seededHex(random: Random, count: number): string {
  let out = '';
  for (let index = 0; index < count; index++) out += Math.floor(random() * 16).toString(16);
  return out;
}

// One call into the CSPRNG per 4 KiB instead of one per id: randomBytes' per-call overhead showed
// on the transfer path under load (decision 040).
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let poolOffset = POOL_BYTES;

/** `bytes` fresh random bytes as text, read from the pool in place (no Buffer made per id). */
function randomText(bytes: number, encoding: 'hex' | 'base64url'): string {
  if (poolOffset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const start = poolOffset;
  poolOffset += bytes;
  return pool.toString(encoding, start, poolOffset);
}

/** An id for a record created at run time: unpredictable, so ids never collide across restarts. */
export function newId(prefix: string): string {
  return `${prefix}_${randomText(8, 'hex')}`;
}

/** An opaque bearer token: 192 random bits, URL-safe. */
export function newToken(): string {
  return `pacu_at_${randomText(24, 'base64url')}`;
}
