import { spawn } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESCRIPTION_TEXT, SKIPPED_WITHOUT_DESCRIPTION } from '../spec/scripts/interface-description.ts';
import { PACU_BIN } from './helpers/pacu-bin.ts';
import { checkSpace, failuresOf, spaceFlags, verifySpace } from './providers/space/check-space.ts';
import {
  describeKnobs,
  FAR_KNOBS,
  KNOB_DEFAULTS,
  KNOBS,
  type Knobs,
  knobsArbitrary,
  quietNetwork,
} from './providers/space/knobs.ts';
import { type SpaceProvider, startSpaceProvider } from './providers/space/space-provider.ts';

// The space of legal providers: a provider that makes any choice the interface description
// leaves open must pass `pacu check` (profile documented, default runs) and `pacu verify`.

/** Pinned, and printed by every test name, so a red combination replays exactly. */
const SEED = 17_065;
/** Drawn combinations per `npm test`; PACU_SPACE_DRAWS raises it for a deeper search. */
const DRAWS = Number(process.env.PACU_SPACE_DRAWS ?? 3);
/** pacu seeds per combination; PACU_SPACE_SEEDS=3 is the "0 false reds over 3 seeds". */
const SEEDS = Number(process.env.PACU_SPACE_SEEDS ?? 1);
/** A draw may put the sandbox far away behind a rate limit: a run of a few hundred requests takes a while. */
const CHECK_TIMEOUT_MS = 240_000;

// Drawn with fc.sample, one test each, rather than inside fc.assert: each draw is a full `pacu check`
// (seconds), so shrinking would rerun dozens; a named test per draw shows its knobs and replays alone.
const drawn = fc.sample(knobsArbitrary(), { seed: SEED, numRuns: DRAWS });
const providers: ReadonlyArray<{ name: string; knobs: Knobs }> = [
  { name: 'base', knobs: KNOB_DEFAULTS },
  { name: 'every knob away from the base', knobs: FAR_KNOBS },
  ...drawn.map((knobs, index) => ({ name: `draw ${index} of fast-check seed ${SEED}`, knobs })),
];
const combinations = providers.flatMap((provider, index) =>
  Array.from({ length: SEEDS }, (_, round) => ({ ...provider, seed: SEED + index * 100 + round })),
);

describe.skipIf(DESCRIPTION_TEXT === undefined)(
  `each knob is a silence of the interface description${SKIPPED_WITHOUT_DESCRIPTION}`,
  () => {
    const description = DESCRIPTION_TEXT ?? '';
    it.each(Object.entries(KNOBS).map(([name, knob]) => ({ name, silence: knob.silence })))(
      '$name: "$silence"',
      ({ silence }) => {
        expect(description).toContain(silence);
      },
    );
  },
);

// Each provider's run mostly waits on its network knobs: all of them, and the CLI's, run at once.
describe.concurrent('the space of legal providers', () => {
  describe(`pacu check passes every provider of the space (fast-check seed ${SEED}, ${combinations.length} combinations)`, () => {
    it.each(combinations)(
      '$name (pacu seed $seed)',
      async ({ knobs, seed }) => {
        const provider = await startSpaceProvider({ knobs });
        try {
          const report = await checkSpace(provider, { seed });
          expect(failuresOf(report), `${describeKnobs(knobs)}\n${failuresOf(report).join('\n')}`).toEqual([]);
          expect(report.summary.passed).toBeGreaterThan(40);
        } finally {
          await provider.close();
        }
      },
      CHECK_TIMEOUT_MS,
    );
  });

  describe('pacu verify with the shipped pacts passes a long-lived provider twice in a row', () => {
    let providers: SpaceProvider[] = [];
    beforeAll(async () => {
      // Pact's verifier sends the pacts' requests itself and waits out no 429 or 503: the network
      // knobs are pacu check's to face, so the verified provider is the far one on a quiet network.
      providers = await Promise.all([
        startSpaceProvider(),
        startSpaceProvider({
          knobs: quietNetwork(FAR_KNOBS),
        }),
      ]);
    });
    afterAll(async () => {
      await Promise.all(providers.map((provider) => provider.close()));
    });
    it.each([
      { name: 'base', index: 0 },
      { name: 'every knob away from the base', index: 1 },
    ])(
      '$name',
      async ({ index }) => {
        const provider = providers[index] as SpaceProvider;
        for (const round of ['first', 'second']) {
          const report = await verifySpace(provider);
          const problems = report.rules
            .filter((rule) => rule.status !== 'passed')
            .map((rule) => `${round} run: ${rule.title}: ${rule.failure?.reason ?? rule.skipReason}`);
          expect(problems).toEqual([]);
          expect(report.summary.passed).toBe(9);
        }
      },
      CHECK_TIMEOUT_MS,
    );
  });

  describe('through the compiled CLI (dist/cli/bin.js)', () => {
    it(
      'pacu check exits 0 on the provider furthest from the base',
      async () => {
        const provider = await startSpaceProvider({ knobs: FAR_KNOBS });
        try {
          const { code, stdout, stderr } = await new Promise<{
            code: number | null;
            stdout: string;
            stderr: string;
          }>((resolve) => {
            const child = spawn(process.execPath, [
              PACU_BIN,
              'check',
              ...spaceFlags(provider),
              '--seed',
              String(SEED),
              // Under its 25 requests a second, as a polite team would run it: nothing is throttled.
              '--rate',
              '20',
              '--quiet',
            ]);
            let stdout = '';
            let stderr = '';
            child.stdout.on('data', (chunk) => (stdout += chunk));
            child.stderr.on('data', (chunk) => (stderr += chunk));
            child.on('close', (code) => resolve({ code, stdout, stderr }));
          });
          expect({ code, stderr }, stdout).toEqual({ code: 0, stderr: '' });
        } finally {
          await provider.close();
        }
      },
      CHECK_TIMEOUT_MS,
    );
  });
});
