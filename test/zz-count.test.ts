import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import { teachThroughProxy } from './helpers/teach-recording.ts';
import { FAR_KNOBS, KNOB_DEFAULTS, quietNetwork } from './providers/space/knobs.ts';
import { startSpaceProvider } from './providers/space/space-provider.ts';

it('counts', async () => {
  for (const knobs of [
    { ...KNOB_DEFAULTS, amountBoundsByType: 'per-payment-type', usersScope: 'us_account', pageLimits: 'refused', pathVariants: 'trailing-slash' },
    quietNetwork(FAR_KNOBS),
  ]) {
    const provider = await startSpaceProvider({ knobs: knobs as never });
    const folder = await mkdtemp(path.join(tmpdir(), 'cnt-'));
    const taught = await teachThroughProxy({ url: provider.url, ...provider.client, ids: provider.ids }, folder);
    console.log(taught.steps.length, taught.outcome.skipped);
    for (const s of taught.steps) console.log(s.status, s.method, s.path, '|', s.teaches);
    await provider.close();
  }
}, 60000);
