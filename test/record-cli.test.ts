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

const ALL = Array.from({ length: 27 }, (_, index) => index + 1);

/** Every choice of the teaching session's recording of the bank sandbox: name, source, value, exchanges. */
const CHOICES: ReadonlyArray<readonly [string, 'recording' | 'default', string, readonly number[]]> = [
  ['basePath', 'recording', '/api/v3', ALL],
  [
    'contentType',
    'recording',
    'application/json; charset=utf-8',
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27],
  ],
  [
    'header.cache-control',
    'recording',
    '"no-store"',
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 21, 22, 23, 24, 25, 26, 27],
  ],
  [
    'header.x-request-id',
    'recording',
    'a fresh UUID',
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 21, 22, 23, 24, 25, 26, 27],
  ],
  ['replay.headers', 'default', 'none', []],
  ['token.lifetime', 'recording', '900 s', [1, 25, 27]],
  ['token.type', 'recording', 'Bearer', [1, 25, 27]],
  ['message.getAccessToken', 'recording', '"Access token issued"', [1, 25, 27]],
  ['message.usdTransfer', 'recording', '"Transfer accepted for processing"', [17, 20, 22]],
  ['message.walletPayout', 'recording', '"Wallet payout accepted for processing"', [24]],
  ['message.createAccount', 'recording', '"US account created"', [15]],
  ['message.getCardTransaction', 'recording', '"Card transaction retrieved"', [11]],
  ['message.getPushToCardPayment', 'recording', '"Push-to-card status retrieved"', [12]],
  ['message.getVirtualCard', 'recording', '"Virtual card retrieved"', [10]],
  ['message.listUsers', 'recording', '"Users retrieved"', [4, 5, 6, 7]],
  [
    'message.getP2pStatus',
    'recording',
    '"The status of the validation request is delivered through a webhook."',
    [9],
  ],
  ['replay.message', 'recording', '"A transfer with this reference already exists; returning it"', [18]],
  ['money', 'recording', 'the shortest number (125.5)', [10, 11, 12, 15, 17, 20, 22, 24]],
  ['timestamps', 'recording', '+00:00, 6 fraction digits', [11, 12, 17, 20, 22, 24]],
  ['id.txn', 'recording', 'UUID', [17, 20, 22]],
  ['id.wpo', 'recording', 'wpo_ + 24 hex', [24]],
  ['id.acct', 'recording', 'acct_ + 24 hex', [15]],
  ['id.ptc', 'recording', 'UUID', [12]],
  ['record.usdTransfer.account_id', 'recording', "echoes the request's account_id", [17, 20, 22]],
  ['record.usdTransfer.description', 'recording', 'left out when the request leaves it out', [20]],
  ['record.walletPayout', 'recording', "pacu's fields, in the recorded order", [24]],
  ['record.createAccount.currency', 'recording', 'always "USD"', [15]],
  ['record.createAccount.hold_balance', 'recording', "echoes the request's hold_balance", [15]],
  ['record.createAccount.user_id', 'recording', "echoes the request's user_id", [15]],
  ['record.createAccount.created_at', 'recording', 'the time it was made', [15]],
  ['record.getAccessToken', 'recording', "pacu's fields, in the recorded order", [1, 25, 27]],
  ['record.listUsers', 'recording', "pacu's fields, in the recorded order", [4, 5, 6, 7]],
  ['record.getP2pStatus', 'recording', "pacu's fields, in the recorded order", [9]],
  ['paging', 'recording', 'page (from 1) and page_size, 10 a page', [4, 5, 6, 7]],
  ['request.contentType', 'recording', 'read as JSON', [22]],
  ['refusal.bad-client', 'recording', '401 "Client authentication failed" (seen on getAccessToken)', [2]],
  ['refusal.missing-token', 'recording', '401 "A bearer access token is required" (seen on listUsers)', [8]],
  [
    'refusal.bad-token',
    'recording',
    '401 "The access token is invalid or has expired" (seen on usdTransfer)',
    [23],
  ],
  [
    'refusal.scope',
    'recording',
    '403 "The access token lacks the {scope} scope" (seen on usdTransfer)',
    [26],
  ],
  ['refusal.unknown-path', 'recording', '404 "No such resource: {path}" (seen on any path)', [14]],
  ['refusal.method', 'default', '405', []],
  ['refusal.content-type', 'default', '400', []],
  ['refusal.getAccessToken.invalid-request', 'recording', '400', [3]],
  ['refusal.usdTransfer.invalid-request', 'recording', '400', [21]],
  ['refusal.invalid-request', 'default', '400', []],
  [
    'refusal.unknown-id-in-path',
    'recording',
    '404 "No virtual card {card_id}" (seen on getVirtualCard)',
    [13],
  ],
  [
    'refusal.unknown-id-in-body',
    'recording',
    '400 "Unknown user_id {user_id}" (seen on createAccount)',
    [16],
  ],
  ['refusal.not-a-funds-source', 'default', '400', []],
  [
    'refusal.reused-reference',
    'recording',
    '409 "Reference {reference} was already used for a different transfer" (seen on usdTransfer)',
    [19],
  ],
  ['bearer', 'default', 'every operation but the token endpoint', []],
  ['scope', 'default', 'us_account for payments and accounts, card for cards', []],
  ['required', 'default', "the description's, and pacu's decisions", []],
  ['reusedReference', 'default', 'refused (see refusal.reused-reference)', []],
];

const SUMMARY = (file: string): string[] => [
  `Learned from ${file} (27 exchanges): 44 choices from the recording, 9 left at pacu's default`,
  '  served under  /api/v3 (application/json; charset=utf-8; headers cache-control, x-request-id)',
  '  tokens        900 s, Bearer',
  '  forms         ids txn UUID, wpo wpo_ + 24 hex, acct acct_ + 24 hex, ptc UUID; timestamps +00:00, 6 fraction digits; amounts the shortest number (125.5)',
  '  records       usdTransfer +account_id -description; createAccount +currency +hold_balance +user_id +created_at',
  '  refusals      bad-client 401, missing-token 401, bad-token 401, scope 403, unknown-path 404, getAccessToken.invalid-request 400, usdTransfer.invalid-request 400, unknown-id-in-path 404, unknown-id-in-body 400, reused-reference 409',
  '  let be        JSON under any Content-Type',
  '  paging        page (from 1) and page_size, 10 a page',
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
    expect(lines[0]).toBe(`pacu record: 27 exchanges with ${sandbox.url}, recorded in ${har}`);
    expect(lines.slice(28, 36)).toEqual(SUMMARY(har));
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
      "| `record.usdTransfer.account_id` | account_id of the record usdTransfer answers | echoes the request's account_id | 17, 20, 22 |",
    );
    expect(markdown).toContain('| `basePath` | the path the interface is served under | /api/v3 | 1-27 |');
    expect(markdown).toContain("## Left at pacu's default (the recording shows nothing of them)");
    expect(markdown).toContain('| `refusal.method` | another method on a known path | 405 |');
  });

  it("a sandbox's API key given with --header stays out of the recording", async () => {
    const file = path.join(folder, 'keyed.har');
    const key = 'sandbox-key-4f9a8b7c6d5e';
    const run = await runCli(['record', ...targetFlags(), '--header', `x-sandbox-key:${key}`, '--out', file]);
    expect(run.code).toBe(0);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('x-sandbox-key');
    expect(text).not.toContain(key);
  }, 60_000);

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
    expect(lines.slice(from, from + 8)).toEqual(SUMMARY(har));
    const report = JSON.parse(await readFile(json, 'utf8')) as LearnedReport;
    expect({ ...report, choices: [] }).toEqual({
      format: 'pacu-learned',
      version: 1,
      recording: har,
      exchanges: 27,
      choices: [],
      contradictions: [],
      unlearned: [],
    });
    expect(
      report.choices.map((choice) => [choice.choice, choice.from, choice.shown, choice.entries]),
    ).toEqual(CHOICES);
  }, 60_000);

  it('--learned without --from-recording is one line and exit 2', async () => {
    const run = await runCli(['mock', '--learned', path.join(folder, 'x.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'pacu: --learned says what a recording taught the mock: give --from-recording FILE too',
    );
  });
});
