// `pacu record` against a sandbox pacu did not write (the bank sandbox), and what `pacu mock
// --from-recording` says it learned from that recording, pinned: the summary it prints as it starts and
// every choice of `--learned`, with the exchanges each came from.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LearnedReport } from '../mock/index.ts';
import { bankSandboxFlags } from './helpers/bank-sandbox-flags.ts';
import { PACU_BIN } from './helpers/pacu-bin.ts';
import { runCli } from './helpers/run-cli.ts';
import { type BankSandbox, startBankSandbox } from './providers/independent/index.ts';

const ALL = Array.from({ length: 119 }, (_, index) => index + 1);

/**
 * Choices of the teaching session's recording of the bank sandbox, learned or left free, each with
 * the exchanges it came from: the happy path's and what the session explored (bounds, scopes,
 * paging limits, paths, evidence per kind).
 */
const CHOICES: ReadonlyArray<readonly [string, 'recording' | 'default', string, readonly number[]]> = [
  ['basePath', 'recording', '/api/v3', ALL],
  ['token.lifetime', 'recording', '900 s', [1, 36, 45, 61, 119]],
  [
    'timestamps.getCardTransaction',
    'default',
    '1 sample (+00:00, 6 fraction digits): too few; left free (pacu writes Z, whole seconds)',
    [11],
  ],
  [
    'timestamps.usdTransfer.WIRE',
    'recording',
    '+00:00, 6 fraction digits',
    [25, 28, 29, 31, 32, 72, 74, 75, 77, 79, 80],
  ],
  ['id.acct', 'recording', 'acct_ + 24 hex', [15, 34, 48]],
  [
    'record.usdTransfer.ACH.account_id',
    'recording',
    "echoes the request's account_id",
    [17, 20, 22, 26, 27, 30, 46, 63, 64, 66, 68, 69],
  ],
  ['record.usdTransfer.WIRE.description', 'recording', 'left out when the request leaves it out', [31, 32]],
  [
    'record.walletPayout.recipient_name',
    'default',
    'left free: left out when the request left it out, in 1 answer: too few',
    [112],
  ],
  ['record.createAccount.created_at', 'recording', 'the time it was made', [15, 34, 48]],
  ['scopes.listUsers', 'recording', 'any scope', [4, 5, 6, 7, 43, 52, 99, 101]],
  ['scopes.getVirtualCard', 'recording', 'card', [10, 42, 51]],
  ['token.grant', 'default', 'what was asked (0 of 2 answers granted more)', [36, 45]],
  ['paging', 'recording', 'page (from 1) and page_size, 10 a page', [4, 5, 6, 7, 43, 52, 99, 101]],
  [
    'paging.limits',
    'recording',
    'page from 1, page_size from 1, page_size up to 100; refused beyond',
    [5, 6, 94, 95, 96, 97, 98, 99, 100, 101, 102],
  ],
  [
    'bounds.usdTransfer:WIRE',
    'recording',
    'WIRE: refused at 0.00 and below (2 refused), taken from 0.01; taken up to 1000000.00, refused at 1000000.01 and above (3 refused)',
    [25, 28, 29, 31, 32, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82],
  ],
  ['paths.trailingSlash', 'recording', 'no operation there', [103, 104]],
  [
    'lifecycle.usd_transfer.ACH',
    'default',
    "not followed (pacu record --follow 5m reads each transfer until it is final): pacu's scenario, on its clock",
    [],
  ],
  ['lifecycle.wallet_payout', 'default', "no read of a payout exists: pacu's scenario", []],
  ['required.walletPayout.recipient_name', 'recording', 'not required', [112]],
  [
    'refusal.scope',
    'recording',
    '403 "The access token lacks the {scope} scope" (seen on usdTransfer, walletPayout, createAccount, getP2pStatus, getCardTransaction, getPushToCardPayment, getVirtualCard)',
    [37, 38, 39, 44, 49, 50, 51],
  ],
  ['refusal.method', 'default', '405', []],
  [
    'refusal.unknown-id-in-body',
    'recording',
    '400 (seen on createAccount, usdTransfer, walletPayout)',
    [16, 108, 110],
  ],
  ['refusal.createAccount.unknown-id-in-body.user_id', 'recording', '400 "Unknown user_id {user_id}"', [16]],
  [
    'refusal.usdTransfer.unknown-id-in-body.account_id',
    'recording',
    '400 "Unknown account_id {account_id}"',
    [108],
  ],
  ['refusal.out-of-bounds', 'recording', '400 (seen on listUsers)', [94, 95, 96, 97, 98, 100, 102]],
  ['reusedReference', 'default', 'refused (see refusal.reused-reference)', []],
];

const SUMMARY = (file: string): string[] => [
  `Learned from ${file} (119 exchanges): 102 choices from the recording, 14 left free (pacu's default)`,
  '  served under  /api/v3 (application/json; charset=utf-8; headers cache-control, x-request-id)',
  '  tokens        900 s, Bearer',
  '  forms         ids txn UUID, wpo wpo_ + 24 hex, acct acct_ + 24 hex, ptc UUID; timestamps usdTransfer.ACH +00:00, 6 fraction digits; usdTransfer.WIRE +00:00, 6 fraction digits; walletPayout +00:00, 6 fraction digits; amounts the shortest number (125.5)',
  '  records       usdTransfer.ACH +account_id -description; usdTransfer.WIRE +account_id -description; createAccount +currency +hold_balance +user_id +created_at',
  '  refusals      bad-client 401, missing-token 401, bad-token 401, scope 403, unknown-path 404, getAccessToken.invalid-request 400, usdTransfer.invalid-request 400, walletPayout.invalid-request 400, createAccount.invalid-request 400, unknown-id-in-path 404, unknown-id-in-body 400, not-a-funds-source 400, reused-reference 409, out-of-bounds 400',
  '  let be        JSON under any Content-Type; walletPayout without recipient_name',
  '  scopes        listUsers any scope, getP2pStatus us_account, getVirtualCard card, getCardTransaction card, getPushToCardPayment card, createAccount us_account, usdTransfer us_account, walletPayout us_account',
  '  paging        page (from 1) and page_size, 10 a page',
  '  limits        ACH refused ≤ 0.00 and refused ≥ 1000000.01; wallet refused ≤ 0.00 and refused ≥ 1000000.01; WIRE refused ≤ 0.00 and refused ≥ 1000000.01; users page from 1, page_size from 1, page_size up to 100',
  "  time          pacu's scenario (not followed: pacu record --follow 5m)",
];

let sandbox: BankSandbox;
let folder: string;
let har: string;
let recorded: { code: number; stdout: string; stderr: string };

const targetFlags = (): string[] => bankSandboxFlags(sandbox);

beforeAll(async () => {
  sandbox = await startBankSandbox();
  folder = await mkdtemp(path.join(tmpdir(), 'pacu-record-'));
  har = path.join(folder, 'sandbox.har');
  recorded = await runCli([
    'record',
    ...targetFlags(),
    '--out',
    har,
    '--learned',
    path.join(folder, 'learned.md'),
  ]);
}, 90_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(folder, { recursive: true, force: true });
});

/** `pacu mock --from-recording FILE …` in text mode: its lines up to "Stop with Ctrl-C.", then SIGTERM. */
async function mockLines(args: readonly string[]): Promise<string[]> {
  const child = spawn(process.execPath, [PACU_BIN, 'mock', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        lines.push(line);
        if (line === 'Stop with Ctrl-C.') resolve();
      });
      child.once('exit', (code) => reject(new Error(`pacu mock exited with ${code}: ${lines.join('\n')}`)));
    });
  } finally {
    const ended = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await ended;
  }
  return lines;
}

describe('pacu record', () => {
  it('sends the teaching session through pacu proxy, records it, and prints what a mock learns', async () => {
    expect(recorded.stderr).toBe('');
    expect(recorded.code).toBe(0);
    const lines = recorded.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`pacu record: 119 exchanges with ${sandbox.url}, recorded in ${har}`);
    expect(lines[1]).toMatch(/^ {2}200 POST \/auth\/token +token lifetime and type/);
    const from = lines.findIndex((line) => line.startsWith('Learned from'));
    expect(from).toBe(120);
    expect(lines.slice(from, from + 11)).toEqual(SUMMARY(har));
    expect(lines.at(-1)).toBe(
      `Next: pacu mock --from-recording ${har} (all it learned: ${path.join(folder, 'learned.md')})`,
    );
  });

  it('the recording holds no credential', async () => {
    const text = await readFile(har, 'utf8');
    expect(text).not.toContain(sandbox.clientSecret);
    expect(text).not.toContain(Buffer.from(`${sandbox.clientId}:${sandbox.clientSecret}`).toString('base64'));
  });

  it('the Markdown view lists each choice with its value and the exchanges it came from', async () => {
    const markdown = await readFile(path.join(folder, 'learned.md'), 'utf8');
    expect(markdown).toContain(
      "| `record.usdTransfer.ACH.account_id` | account_id of the record usdTransfer (ACH) answers | echoes the request's account_id | 17, 20, 22, 26, 27, 30, 46, 63, 64, 66, 68, 69 |",
    );
    expect(markdown).toContain('| `basePath` | the path the interface is served under | /api/v3 | 1-119 |');
    expect(markdown).toContain(
      "## Left free, at pacu's default (the recording shows nothing of them, or too little, or disagrees)",
    );
    expect(markdown).toContain('| `refusal.method` | another method on a known path | 405 |  |');
    expect(markdown).toContain(
      '| `timestamps.getCardTransaction` | how getCardTransaction records write timestamps (ISO 8601 UTC) | 1 sample (+00:00, 6 fraction digits): too few; left free (pacu writes Z, whole seconds) | 11 |',
    );
  });

  it("a sandbox's API key given with --header stays out of the recording; --budget caps the session", async () => {
    const file = path.join(folder, 'keyed.har');
    const key = 'sandbox-key-4f9a8b7c6d5e';
    const run = await runCli([
      'record',
      ...targetFlags(),
      '--header',
      `x-sandbox-key:${key}`,
      '--budget',
      '40',
      '--out',
      file,
    ]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe(`pacu record: 40 exchanges with ${sandbox.url}, recorded in ${file}`);
    expect(lines[41]).toBe(
      '  budget 40 requests: left out the scope each operation needs, and which need a token (cut short); the amount bounds of each payment type; the limits of paging; path variants (a trailing slash, another case); a missing and an unknown value of each identifier (a larger --budget explores them)',
    );
    const text = await readFile(file, 'utf8');
    expect(text).toContain('x-sandbox-key');
    expect(text).not.toContain(key);
  }, 60_000);

  it('a --budget or a --follow that is no number or time is one line and exit 2', async () => {
    for (const [flag, value, said] of [
      ['--budget', '5', '--budget must be a whole number from 10 to 10000'],
      ['--follow', 'soon', '--follow must be a time from 1s to 60m, such as 90s or 5m'],
    ] as const) {
      const run = await runCli([
        'record',
        ...targetFlags(),
        flag,
        value,
        '--out',
        path.join(folder, 'no.har'),
      ]);
      expect(run.code).toBe(2);
      expect(run.stderr.trim()).toContain(said);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('a recording is never overwritten; no target is one line and exit 2', async () => {
    const again = await runCli(['record', ...targetFlags(), '--out', har]);
    expect(again).toMatchObject({ code: 2, stdout: '' });
    expect(again.stderr.trim()).toBe(
      `pacu: --out ${har} exists; a recording is never overwritten: give another file`,
    );
    const untargeted = await runCli(['record', '--out', path.join(folder, 'other.har')]);
    expect(untargeted.code).toBe(2);
    expect(untargeted.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(path.join(folder, 'other.har'))).toBe(false);
  });
});

describe('pacu mock --from-recording --learned', () => {
  it('prints the summary as it starts and writes every choice, learned or left at the default', async () => {
    const json = path.join(folder, 'learned.json');
    const lines = await mockLines(['--from-recording', har, '--learned', json]);
    const from = lines.findIndex((line) => line.startsWith('Learned from'));
    expect(lines.slice(from, from + 11)).toEqual(SUMMARY(har));
    const report = JSON.parse(await readFile(json, 'utf8')) as LearnedReport;
    expect({ ...report, choices: [] }).toEqual({
      format: 'pacu-learned',
      version: 1,
      recording: har,
      exchanges: 119,
      choices: [],
      contradictions: [],
      unlearned: [],
    });
    expect(report.choices).toHaveLength(116);
    expect(
      report.choices.map((choice) => [choice.choice, choice.from, choice.shown, choice.entries]),
    ).toEqual(expect.arrayContaining([...CHOICES]));
  }, 60_000);

  it('--learned without --from-recording is one line and exit 2', async () => {
    const run = await runCli(['mock', '--learned', path.join(folder, 'x.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'pacu: --learned says what a recording taught the mock: give --from-recording FILE too',
    );
  });
});
