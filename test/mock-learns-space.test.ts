import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayRecording } from '../contracts/index.ts';
import { startMock } from '../mock/index.ts';
import { loadSpec } from '../spec/index.ts';
import { type Report, resolveTargetConfig, runChecks, type TargetConfigInput } from '../suites/index.ts';
import { type Outcome, runBattery } from './helpers/client-battery.ts';
import { sideClient } from './helpers/side-client.ts';
import { teachThroughProxy } from './helpers/teach-recording.ts';
import { startBankSandbox } from './providers/independent/index.ts';
import {
  describeKnobs,
  FAR_KNOBS,
  KNOB_DEFAULTS,
  type Knobs,
  knobsArbitrary,
  quietNetwork,
} from './providers/space/knobs.ts';
import { startSpaceProvider } from './providers/space/space-provider.ts';

// A mock learned from a recording of a provider pacu did not write replays it without drift, answers
// a client team's battery (not the session's requests) with the provider's status and refused field,
// and gets the provider's verdict from pacu check. Not mutants: a mock may copy a breakage it saw.
// The network knobs stay quiet: latency, throttling and resets are the road to a sandbox.

/** Pinned, and printed in each test name, so a red combination replays exactly; PACU_SPACE_LEARN_SEED draws others. */
const SEED = Number(process.env.PACU_SPACE_LEARN_SEED ?? 28_028);
/** Drawn space providers per `npm test`; PACU_SPACE_LEARN_DRAWS raises it for a deeper search. */
const DRAWS = Number(process.env.PACU_SPACE_LEARN_DRAWS ?? 1);
/** `pacu check` runs per rule on both sides; PACU_SPACE_LEARN_RUNS=100 is pacu's default. */
const RUNS = Number(process.env.PACU_SPACE_LEARN_RUNS ?? 20);
const TIMEOUT_MS = 180_000;
/** PACU_SPACE_LEARN_REPORT=1 prints each provider's agreement (probes agreeing / probes sent). */
const REPORT = process.env.PACU_SPACE_LEARN_REPORT === '1';

/** Every knob away from the base, on a quiet network. */
const FAR: Knobs = quietNetwork(FAR_KNOBS);

interface Provider {
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly ids: {
    readonly cardId: string;
    readonly cardTransactionId: string;
    readonly pushToCardId: string;
  };
  close(): Promise<void>;
}

async function spaceProvider(knobs: Knobs): Promise<Provider> {
  const provider = await startSpaceProvider({ knobs });
  return { url: provider.url, ...provider.client, ids: provider.ids, close: provider.close };
}

async function independentProvider(): Promise<Provider> {
  const sandbox = await startBankSandbox();
  const { cardId, cardTransactionId, pushToCardId } = sandbox;
  return { ...sandbox, ids: { cardId, cardTransactionId, pushToCardId } };
}

const drawn = fc.sample(knobsArbitrary(), { seed: SEED, numRuns: DRAWS }).map(quietNetwork);
const PROVIDERS: ReadonlyArray<{ name: string; start: () => Promise<Provider> }> = [
  { name: 'the space base', start: () => spaceProvider(KNOB_DEFAULTS) },
  { name: 'the space, every knob away from the base', start: () => spaceProvider(FAR) },
  ...drawn.map((knobs, index) => ({
    name: `space draw ${index} of fast-check seed ${SEED}: ${describeKnobs(knobs)}`,
    start: () => spaceProvider(knobs),
  })),
  { name: 'the independent bank sandbox', start: independentProvider },
];

const same = (a: Outcome, b: Outcome | undefined): boolean => a.status === b?.status && a.field === b.field;

/** A late rule's skip that depends on timing alone: with tokens of 2 s, none may be young enough at the end. */
const SKIPPED_BY_TIME = /no token of the run has enough of its stated life left/;
const ruleKey = (rule: Report['rules'][number]): string => `${rule.id} ${rule.operation}`;

/** Rules passed in `report`, less those either run skipped only because of how long the run took. */
function passedBeside(report: Report, other: Report): number {
  const timed = new Set(
    [...report.rules, ...other.rules]
      .filter((rule) => SKIPPED_BY_TIME.test(rule.skipReason ?? ''))
      .map(ruleKey),
  );
  return report.rules.filter((rule) => rule.status === 'passed' && !timed.has(ruleKey(rule))).length;
}

const failures = (report: Report): string[] =>
  report.rules
    .filter((rule) => rule.status === 'failed')
    .map((rule) => `${rule.id} on ${rule.operation}: ${rule.failure?.reason ?? ''}`);

function check(target: TargetConfigInput): Promise<Report> {
  return runChecks({ target: resolveTargetConfig(target), seed: SEED, runs: RUNS });
}

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'pacu-learns-space-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe(`a mock learned from a recording of a legal provider stands in for it (pacu check runs ${RUNS})`, () => {
  // One at a time: a check shares its process with the mock it judges, and a provider whose tokens
  // live 2 s and answers an expired one 403 (which pacu check does not renew) needs the time it asks for.
  it.each(PROVIDERS.map((provider, index) => ({ ...provider, index })))(
    '$name',
    async ({ start, index, name }) => {
      const provider = await start();
      try {
        const taught = await teachThroughProxy(provider, folder, `provider-${index}.har`);
        const mock = await startMock({ fromRecording: taught.file, log: () => {} });
        try {
          const own = { clientId: mock.demoClient.clientId, clientSecret: mock.demoClient.clientSecret };
          expect(mock.learned?.contradictions).toEqual([]);
          const replay = await replayRecording({
            recording: taught.har,
            target: resolveTargetConfig({ target: mock.url, ...own }),
          });
          expect(failures(replay), 'pacu replay of the recording against the mock').toEqual([]);
          expect(replay.summary.passed).toBe(taught.har.log.entries.length);
          const onProvider = await check({ target: provider.url, ...provider.ids, ...provider });
          const onMock = await check({
            target: mock.url,
            ...own,
            cardId: mock.seeded.cardId,
            cardTransactionId: mock.seeded.cardTransactionId,
            pushToCardId: mock.seeded.pushToCardId,
          });
          // The same verdict: a provider pacu check calls red (a bound it cannot tell yet) is red on its mock too.
          expect(failures(onMock)).toEqual(failures(onProvider));
          expect(passedBeside(onMock, onProvider)).toBe(passedBeside(onProvider, onMock));
          const spec = await loadSpec();
          const tag = `${SEED}-${index}`;
          const [fromProvider, fromMock] = [
            await runBattery(
              spec,
              sideClient(provider.url, provider.clientId, provider.clientSecret),
              provider.ids,
              tag,
            ),
            await runBattery(spec, sideClient(mock.url, own.clientId, own.clientSecret), mock.seeded, tag),
          ];
          const agreeing = fromMock.filter((outcome, at) => same(outcome, fromProvider[at]));
          if (REPORT) console.info(`${name}: ${agreeing.length}/${fromMock.length} probes agree`);
          const apart = fromMock.flatMap((outcome, at) => {
            const theirs = fromProvider[at] as Outcome;
            return same(outcome, theirs)
              ? []
              : [
                  `${outcome.probe}: provider ${theirs.status} ${theirs.field ?? ''}, mock ${outcome.status} ${outcome.field ?? ''}`,
                ];
          });
          expect(apart, 'the client battery: status and refused field, provider against mock').toEqual([]);
        } finally {
          await mock.close();
        }
      } finally {
        await provider.close();
      }
    },
    TIMEOUT_MS,
  );
});
