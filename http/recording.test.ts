import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestEnd } from './pipeline.ts';
import { openRecording } from './recording.ts';
import { createRedactor } from './redaction.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const fileIn = (name: string): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-recording-'));
  dirs.push(dir);
  return path.join(dir, name);
};

const event = (seq: number, text = `{"n":${seq}}`): RequestEnd => ({
  seq,
  startedAt: 0,
  request: {
    method: 'GET',
    path: '/v3/users',
    query: new URLSearchParams(`page=${seq}`),
    headers: { authorization: 'Bearer tok-0123456789' },
    body: Buffer.alloc(0),
  },
  operationId: 'listUsers',
  clientId: undefined,
  status: 200,
  fault: undefined,
  answer: {
    headers: { 'content-type': 'application/json' },
    text,
    bytes: text.length,
    whole: true,
    repeated: false,
    durationMs: 1,
    error: undefined,
  },
});

const open = (file: string) =>
  openRecording({
    file,
    redactor: createRedactor(),
    origin: () => 'http://up/sandbox',
    surface: 'pacu test',
    onError: 'serve',
    log: (line) => {
      throw new Error(line);
    },
  });
const entries = (
  file: string,
): Array<{ request: { url: string }; response: { content: { text: string } } }> =>
  JSON.parse(readFileSync(file, 'utf8')).log.entries;

describe('openRecording', () => {
  it('leaves a whole HAR after every flush, however many entries a turn holds, created 0600', async () => {
    const file = fileIn('out.har');
    const recording = open(file);
    expect(entries(file)).toEqual([]);
    // More than the buffer a turn is written into holds: it grows for the turn.
    for (let seq = 1; seq <= 1000; seq++) recording.end?.(event(seq));
    recording.flush?.();
    expect(entries(file).map((entry) => entry.request.url)).toEqual(
      Array.from({ length: 1000 }, (_, index) => `http://up/sandbox/v3/users?page=${index + 1}`),
    );
    recording.end?.(event(1001, 'Zoë "quoted" ☃'));
    recording.flush?.();
    expect(entries(file).at(-1)?.response.content.text).toBe('Zoë "quoted" ☃');
    expect(recording.recorded).toBe(1001);
    await recording.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain('tok-0123456789');
  });

  it('continues a recording pacu wrote, after the entries it holds', async () => {
    const file = fileIn('again.har');
    const first = open(file);
    first.end?.(event(1));
    await first.close();
    const second = open(file);
    second.end?.(event(2));
    await second.close();
    expect(entries(file).map((entry) => entry.response.content.text)).toEqual(['{"n":1}', '{"n":2}']);
  });

  it.each([
    ['another HAR', '{"log":{"version":"1.2","creator":{"name":"Firefox"},"entries":[]}}'],
    ['text', 'my notes'],
    ['a pacu head and nothing to read after it', '{"log":{"version":"1.2","creator":{"name":"pacu"'],
  ])('refuses %s with one line and leaves it as it was, its mode too', (_name, text) => {
    const file = fileIn('other.har');
    writeFileSync(file, text, { mode: 0o644 });
    chmodSync(file, 0o644);
    expect(() => open(file)).toThrow(/^pacu: --record .* exists and is not a recording pacu can continue/);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('continues a recording a write cut short after its last whole entry, and says so once', async () => {
    const file = fileIn('torn.har');
    const first = open(file);
    for (let seq = 1; seq <= 3; seq++) first.end?.(event(seq));
    await first.close();
    const whole = readFileSync(file, 'utf8');
    for (const cut of [whole.length - 2, whole.lastIndexOf(',\n{') + 40, whole.indexOf('[\n{') + 30]) {
      writeFileSync(file, whole.slice(0, cut));
      const lines: string[] = [];
      const again = openRecording({
        file,
        redactor: createRedactor(),
        origin: () => 'http://up/sandbox',
        surface: 'pacu test',
        onError: 'serve',
        log: (line) => lines.push(line),
      });
      again.end?.(event(9));
      await again.close();
      const kept = entries(file).map((entry) => entry.response.content.text);
      expect(kept.at(-1)).toBe('{"n":9}');
      expect(kept.length).toBeLessThanOrEqual(4);
      expect(lines).toEqual([expect.stringMatching(/^pacu test: --record .* ended mid-entry/)]);
    }
  });
});
