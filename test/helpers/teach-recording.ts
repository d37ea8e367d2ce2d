// A teaching session (contracts/teaching-session.ts) sent to a provider through `pacu proxy --record`,
// as `pacu record` does it: the recording a mock learns the provider from.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { runTeachingSession, type TeachingOutcome } from '../../contracts/index.ts';
import { type Har, readHar } from '../../http/index.ts';
import { startProxy } from '../../proxy/index.ts';
import type { TargetIds } from '../../suites/index.ts';

export interface Taught {
  readonly file: string;
  readonly har: Har;
  readonly steps: TeachingOutcome['steps'];
  readonly outcome: TeachingOutcome;
}

export async function teachThroughProxy(
  provider: {
    readonly url: string;
    readonly clientId: string;
    readonly clientSecret: string;
    readonly ids?: TargetIds;
  },
  folder: string,
  name = 'taught.har',
  session: { readonly budget?: number; readonly followMs?: number } = {},
): Promise<Taught> {
  const file = path.join(folder, name);
  await rm(file, { force: true });
  const proxy = await startProxy({
    upstream: provider.url,
    record: file,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    control: false,
    log: () => {},
  });
  let outcome: TeachingOutcome;
  try {
    outcome = await runTeachingSession({
      ...session,
      baseUrl: proxy.url,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      ...(provider.ids ? { ids: provider.ids } : {}),
    });
  } finally {
    await proxy.close();
  }
  return { file, har: await readHar(file), steps: outcome.steps, outcome };
}
