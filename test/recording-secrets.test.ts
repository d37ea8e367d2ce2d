// Credentials in any place and encoding, and card data, are in no output of the proxy: the HAR, the
// log, the finding lines, every report, the control API (decision 166). One proxy in-process, then
// one `pacu proxy` process for its stdout, stderr and report files.
// Deeper: PACU_RECORDING_RUNS=300 npx vitest run test/recording-secrets.test.ts
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findingLine } from '../cli/finding-line.ts';
import { renderConsole } from '../cli/reporters/console-reporter.ts';
import { renderHtml } from '../cli/reporters/html-reporter.ts';
import { renderJson } from '../cli/reporters/json-reporter.ts';
import { renderJunit } from '../cli/reporters/junit-reporter.ts';
import { renderMarkdown } from '../cli/reporters/markdown-reporter.ts';
import { createRedactor } from '../http/index.ts';
import { type RunningProxy, startProxy } from '../proxy/index.ts';
import { startProxyCli } from './helpers/proxy-process.ts';
import { cardNumber, holds, maskedCardNumber, type SecretCase, secretCase } from './helpers/secret-places.ts';

const RUNS = Number(process.env.PACU_RECORDING_RUNS ?? 40);
/** Deeper runs take longer: a second per ten cases at least. */
const TIMEOUT_MS = Math.max(30_000, RUNS * 400);
const dir = mkdtempSync(path.join(tmpdir(), 'pacu-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Cards the upstream holds, by id: what a card read and a push-to-card read answer. */
const cards = new Map<string, { cvv: string; pan: string }>();

/** A careless provider: it echoes what it was sent (body, URL, credential headers), and answers card reads with card data. */
function answer(req: IncomingMessage, body: string): unknown {
  const url = req.url ?? '';
  const card = /\/v3\/(cards\/virtual|payments\/card)\/([^/?]+)/.exec(url);
  if (card) {
    const { cvv, pan } = cards.get(card[2] ?? '') ?? { cvv: '000', pan: '0' };
    return card[1] === 'cards/virtual'
      ? {
          success: true,
          message: `Virtual card found for ${pan}`,
          data: {
            card_id: card[2],
            card_name: 'Ops',
            card_brand: 'VISA',
            card_type: 'virtual',
            card_status: 'ACTIVE',
            card_balance: 10,
            currency: 'USD',
            cvv,
            expiration: '09/27',
            first_six: pan.slice(0, 6),
            last_four: pan.slice(-4),
          },
        }
      : {
          success: true,
          message: 'ok',
          data: {
            transaction_id: card[2],
            amount: 5,
            card_number: pan,
            description: `paid to card ${pan}`,
            transaction_date: '2026-01-01T00:00:00Z',
            transaction_status: 'successful',
          },
        };
  }
  const echoed = Object.fromEntries(
    Object.entries(req.headers).filter(([name]) => name !== 'host' && name !== 'content-length'),
  );
  return { success: true, message: 'ok', data: { url, body, headers: echoed } };
}

let upstream: Server;
let upstreamUrl: string;
beforeAll(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = JSON.stringify(answer(req, Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200, {
        'content-type': 'application/json',
        'set-cookie': 'sid=upstream-session-38; Path=/',
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/v3`;
});
afterAll(() => {
  upstream.closeAllConnections();
  upstream.close();
});

const send = async (base: string, sent: SecretCase): Promise<string> => {
  const answer = await request(`${base}${sent.path}`, {
    method: sent.method,
    headers: sent.headers,
    ...(sent.body === undefined ? {} : { body: sent.body }),
  });
  return answer.body.text();
};

/** Everything an in-process proxy showed of its traffic, once it closed. */
/** A proxy recording to `har`, keeping what it logs and finds (as lines) for shownBy(). */
async function recordingProxy(har: string): Promise<{ proxy: RunningProxy; lines: string[] }> {
  const lines: string[] = [];
  const proxy = await startProxy({
    upstream: upstreamUrl,
    record: har,
    keepExchanges: 10_000,
    log: (line) => lines.push(line),
    onFinding: (finding) => lines.push(findingLine(finding)),
  });
  return { proxy, lines };
}

async function shownBy(proxy: RunningProxy, har: string, lines: string[]): Promise<Record<string, string>> {
  await new Promise((resolve) => setTimeout(resolve, 20));
  const origin = proxy.origin;
  const exchanges = await (await request(`${origin}/__pacu/exchanges`)).body.text();
  const findings = await (await request(`${origin}/__pacu/findings`)).body.text();
  await proxy.close();
  const report = proxy.report();
  return {
    recording: readFileSync(har, 'utf8'),
    log: lines.join('\n'),
    exchanges,
    findings,
    json: renderJson(report),
    junit: renderJunit(report),
    html: renderHtml(report),
    markdown: renderMarkdown(report),
    console: renderConsole(report),
  };
}

describe('finding 1: a credential in any place and encoding is in no output', () => {
  it(
    'shows none of them in the recording, the log, the findings, the reports or the control API (property)',
    async () => {
      const cases = fc.sample(secretCase(), { numRuns: RUNS, seed: 38 });
      const har = path.join(dir, 'secrets.har');
      const { proxy, lines } = await recordingProxy(har);
      // The client gets the provider's answer as it came: the echo holds each secret.
      for (const sent of cases)
        expect(holds(await send(proxy.url, sent), sent.secret), sent.place).toBe(true);
      const shown = await shownBy(proxy, har, lines);
      expect(JSON.parse(shown.findings)).not.toEqual([]);
      for (const sent of cases)
        for (const [where, text] of Object.entries(shown))
          expect(holds(text, sent.secret), `${sent.place} ${JSON.stringify(sent)} in the ${where}`).toBe(
            false,
          );
      // What is not a credential is left as it was.
      expect(shown.recording).toContain('usr_1');
      expect(shown.recording).toContain('grant_type=client_credentials');
    },
    TIMEOUT_MS,
  );

  it('redacts a credential-named first query parameter, the issue’s example', () => {
    const redactor = createRedactor({});
    for (const name of ['password', 'token', 'TOKEN', 'pwd', 'passwd'])
      expect(redactor.redactText(`http://h/v3/users?${name}=hunter2hunter2`)).toBe(
        `http://h/v3/users?${name}=[redacted]`,
      );
    expect(redactor.redactText('{"client\\u005fsecret":"hunter2hunter2"}')).toBe(
      '{"client\\u005fsecret":"[redacted]"}',
    );
  });
});

describe('finding 2: card data is masked by default', () => {
  it(
    'removes the CVV and keeps six and four digits of a card number, with its length, in every output (property)',
    async () => {
      const drawn = fc.sample(fc.tuple(cardNumber(), fc.stringMatching(/^[0-9]{3,4}$/)), {
        numRuns: Math.max(5, Math.round(RUNS / 4)),
        seed: 38,
      });
      const har = path.join(dir, 'cards.har');
      const { proxy, lines } = await recordingProxy(har);
      for (const [index, [pan, cvv]] of drawn.entries()) cards.set(`card_${index}`, { pan, cvv });
      for (let index = 0; index < drawn.length; index++) {
        await request(`${proxy.url}/cards/virtual/card_${index}`).then((answer) => answer.body.text());
        await request(`${proxy.url}/payments/card/card_${index}`).then((answer) => answer.body.text());
        // A client that sends a card number, in a query and in a body.
        const [pan] = drawn[index] as [string, string];
        await request(`${proxy.url}/users?card_number=${pan}`).then((answer) => answer.body.text());
        await request(`${proxy.url}/accounts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ user_id: 'usr_1', cardNumber: pan, cvc: drawn[index]?.[1] }),
        }).then((answer) => answer.body.text());
      }
      const shown = await shownBy(proxy, har, lines);
      for (const [pan] of drawn)
        for (const [where, text] of Object.entries(shown))
          expect(text.includes(pan), `${pan} in the ${where}`).toBe(false);
      const entries = JSON.parse(shown.recording).log.entries as Array<{
        request: { url: string };
        response: { content: { text: string } };
      }>;
      drawn.forEach(([pan], index) => {
        const read = (suffix: string) =>
          JSON.parse(
            entries.find((entry) => entry.request.url.endsWith(suffix))?.response.content.text ?? '{}',
          ).data;
        expect(read(`/cards/virtual/card_${index}`).cvv).toBe('[redacted]');
        expect(read(`/payments/card/card_${index}`).card_number).toBe(maskedCardNumber(pan));
      });
    },
    TIMEOUT_MS,
  );

  it('keeps card data in clear with keepCardData, for teams that need their test cards', async () => {
    const har = path.join(dir, 'kept.har');
    cards.set('kept', { pan: '4111111111111111', cvv: '737' });
    const proxy = await startProxy({ upstream: upstreamUrl, record: har, keepCardData: true, log: () => {} });
    await request(`${proxy.url}/cards/virtual/kept`).then((answer) => answer.body.text());
    await proxy.close();
    const recording = readFileSync(har, 'utf8');
    expect(recording).toContain('4111111111111111');
    expect(recording).toContain('\\"cvv\\":\\"737\\"');
  });
});

describe('findings 1 and 2 in a pacu proxy process: stdout, stderr and the report files', () => {
  it('shows no credential and no card number in any of them', async () => {
    const cases = fc.sample(secretCase(), { numRuns: 16, seed: 83 });
    cards.set('cli', { pan: '5555555555554444', cvv: '321' });
    const har = path.join(dir, 'cli.har');
    const reports = ['json', 'junit', 'html', 'markdown'].map((kind) => [
      kind,
      path.join(dir, `cli.${kind}`),
    ]);
    const proxy = await startProxyCli([
      '--upstream',
      upstreamUrl,
      '--record',
      har,
      '--reporter',
      'console',
      ...reports.flatMap(([kind, file]) => ['--reporter', `${kind}:${file}`]),
    ]);
    for (const sent of cases) await send(proxy.info.url, sent);
    await request(`${proxy.info.url}/cards/virtual/cli`).then((answer) => answer.body.text());
    await request(`${proxy.info.url}/payments/card/cli`).then((answer) => answer.body.text());
    proxy.child.kill('SIGTERM');
    await proxy.exit;
    const shown: Record<string, string> = {
      recording: readFileSync(har, 'utf8'),
      stdout: proxy.stdout(),
      stderr: proxy.stderr(),
      ...Object.fromEntries(reports.map(([kind, file]) => [kind, readFileSync(file as string, 'utf8')])),
    };
    expect(shown.stderr).toMatch(/pacu: client /);
    for (const [where, text] of Object.entries(shown)) {
      for (const sent of cases)
        expect(holds(text, sent.secret), `${sent.place} ${JSON.stringify(sent)} in the ${where}`).toBe(false);
      expect(text.includes('5555555555554444'), `the card number in the ${where}`).toBe(false);
    }
  }, 60_000);
});
