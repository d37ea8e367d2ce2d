// The ports tests hand to child processes come from outside the ephemeral range, which the run's
// own listen(0) servers and outgoing connections draw from, so none of those takes one first.
import { describe, expect, it } from 'vitest';
import { ephemeralStart, freePort } from './helpers/free-port.ts';

const start = ephemeralStart();

describe.skipIf(start === undefined)('freePort', () => {
  it('draws ports below the kernel ephemeral range, each free when drawn', async () => {
    const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(start as number);
    }
  });
});
