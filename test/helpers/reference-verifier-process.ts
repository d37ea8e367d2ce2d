// Pact's verifier exactly as a Pact user runs it, for differential tests: no pacu code on the path.
import { writeFile } from 'node:fs/promises';
import { Verifier } from '@pact-foundation/pact';

interface FfiError {
  interaction?: string;
  mismatch?: { message?: string; mismatches?: Array<{ mismatch?: string; path?: string }> };
}

const [out, providerBaseUrl, ...pactUrls] = process.argv.slice(2);
const verifier = new Verifier({ providerBaseUrl, pactUrls, logLevel: 'error' });
let json: string;
try {
  json = await verifier.verifyProvider();
} catch (error) {
  json = (error as Error).message;
}
const result = JSON.parse(json) as {
  interactionResults?: Array<{ description?: string; result?: string }>;
  errors?: FfiError[];
};
const errors = [...(result.errors ?? [])];
const rows = (result.interactionResults ?? []).map((run) => {
  const passed = run.result === 'OK';
  // The verifier lists its errors in the order of the failed interactions.
  const error = passed ? undefined : errors.shift();
  const problems =
    error?.mismatch?.mismatches?.map((item) => `${item.path ?? ''}: ${item.mismatch ?? ''}`) ??
    (error?.mismatch?.message ? [error.mismatch.message] : []);
  return { description: run.description ?? '', passed, problems };
});
await writeFile(out ?? 'result.json', JSON.stringify(rows));
