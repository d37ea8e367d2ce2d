import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import type { Report } from '../suites/index.ts';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
type Judge = (headers: Record<string, string>, body: string) => number;
const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

/** A receiver on 127.0.0.1 that answers each delivery with the status `judge` picks. */
async function receiver(judge: Judge): Promise<string> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = judge(flat(request.headers), Buffer.concat(chunks).toString('utf8'));
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

const flat = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );

/** Verified by the reference library, as a careful merchant would. */
const standard: Judge = (headers, body) => {
  try {
    new Webhook(SECRET).verify(body, headers);
    return 204;
  } catch {
    return 400;
  }
};

/** Checks the HMAC by hand and forgets the timestamp. */
const noTimestampCheck: Judge = (headers, body) => {
  const key = Buffer.from(SECRET.slice(6), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
    .digest('base64');
  return (headers['webhook-signature'] ?? '').split(' ').includes(`v1,${expected}`) ? 200 : 401;
};

function rejectingRedeliveries(): Judge {
  const seen = new Set<string>();
  return (headers, body) => {
    const status = standard(headers, body);
    if (status >= 300) return status;
    const id = headers['webhook-id'] ?? '';
    if (seen.has(id)) return 409;
    seen.add(id);
    return status;
  };
}

/** `pacu webhooks check --receiver url --secret SECRET ...extra`. */
const check = (url: string, ...extra: string[]) =>
  run('webhooks', 'check', '--receiver', url, '--secret', SECRET, ...extra);

async function run(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const exitCode = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { exitCode, stdout, stderr };
}

function failedIds(stdout: string): string[] {
  return [
    ...new Set([...stdout.matchAll(/\d+\) (webhooks\.[a-z-]+) on /g)].map((match) => match[1] ?? '')),
  ].sort();
}

describe('pacu webhooks check', () => {
  it('exits 0 for a receiver that verifies with the Standard Webhooks library', async () => {
    const url = await receiver(standard);
    const result = await check(url);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/56 passed, 0 failed, 0 skipped/);
    expect(result.stdout).toMatch(/p2p\.validated/);
  });

  it('exits 1 for a receiver that accepts anything, naming every refusal it missed', async () => {
    const url = await receiver(() => 200);
    const result = await check(url, '--event', 'usd_transfer.failed');
    expect(result.exitCode).toBe(1);
    expect(failedIds(result.stdout)).toEqual([
      'webhooks.bad-signature-refused',
      'webhooks.future-refused',
      'webhooks.stale-refused',
      'webhooks.unsigned-refused',
      'webhooks.wrong-secret-refused',
    ]);
    expect(result.stdout).toMatch(/acknowledged a message it must refuse/);
  });

  it('exits 1 for a receiver that skips the timestamp check, naming stale and far-future events', async () => {
    const url = await receiver(noTimestampCheck);
    const result = await check(url);
    expect(result.exitCode).toBe(1);
    expect(failedIds(result.stdout)).toEqual(['webhooks.future-refused', 'webhooks.stale-refused']);
  });

  it('exits 1 for a receiver that refuses a redelivery of the same webhook-id', async () => {
    const url = await receiver(rejectingRedeliveries());
    const result = await check(url);
    expect(result.exitCode).toBe(1);
    expect(failedIds(result.stdout)).toEqual(['webhooks.redelivery-accepted']);
    expect(result.stdout).toMatch(/HTTP 409 \(message 2 of 2\)/);
  });

  it('exits 1 for a receiver that only tries the first signature (secret rotation breaks it)', async () => {
    const url = await receiver((headers, body) => {
      const [first = ''] = (headers['webhook-signature'] ?? '').split(' ');
      return standard({ ...headers, 'webhook-signature': first }, body);
    });
    const result = await check(url);
    expect(failedIds(result.stdout)).toEqual(['webhooks.rotated-secret-accepted']);
  });

  it('does not count refusals from a receiver that refuses everything: they are skipped, the run fails', async () => {
    const url = await receiver(() => 401);
    const result = await check(url, '--event', 'p2p.validated');
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/0 passed, 3 failed, 5 skipped/);
    expect(result.stdout).toMatch(/did not acknowledge a correctly signed p2p\.validated event/);
  });

  it('writes every report without the secret or a signature, showing what was sent and what came back', async () => {
    const url = await receiver(() => 202);
    const dir = mkdtempSync(path.join(tmpdir(), 'pacu-webhooks-'));
    const files = ['json', 'junit', 'html', 'markdown'].map((kind) => [
      kind,
      path.join(dir, `report.${kind}`),
    ]);
    const result = await check(
      url,
      '--event',
      'wallet_payout.successful',
      ...files.flatMap(([kind, file]) => ['--reporter', `${kind}:${file}`]),
      '--reporter',
      'console',
    );
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(readFileSync(files[0]?.[1] ?? '', 'utf8')) as Report;
    const stale = report.rules.find((rule) => rule.id === 'webhooks.stale-refused');
    expect(stale?.failure?.request.headers['webhook-signature']).toBe('v1,<HMAC under --secret>');
    expect(stale?.failure?.request.body).toContain('"type":"wallet_payout.successful"');
    expect(stale?.failure?.response?.status).toBe(202);
    const key = SECRET.slice(6);
    for (const text of [result.stdout, ...files.map(([, file]) => readFileSync(file ?? '', 'utf8'))]) {
      expect(text).not.toContain(key);
      expect(text).not.toMatch(/v1,[A-Za-z0-9+/]{43}=/);
    }
  });

  it('exits 2 with one line when nothing listens at the receiver URL or the flags are wrong', async () => {
    const url = await receiver(standard);
    await Promise.all(servers.splice(0).map((close) => close()));
    const unreachable = await check(url);
    expect(unreachable.exitCode).toBe(2);
    expect(unreachable.stderr).toMatch(/^pacu: cannot reach the webhook receiver .*connection refused.*\n$/);
    for (const args of [
      ['--secret', SECRET],
      ['--receiver', 'not a url', '--secret', SECRET],
      ['--receiver', url, '--secret', 'whsec_***'],
      ['--receiver', url, '--secret', SECRET, '--event', 'nope.happened'],
    ]) {
      const result = await run('webhooks', 'check', ...args);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
