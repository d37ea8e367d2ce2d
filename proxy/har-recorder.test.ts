import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type HarEntryText, harBodyText } from '../http/index.ts';
import { openHarRecorder } from './har-recorder.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const entry = (index: number, body = `{"n":${index}}`): HarEntryText => ({
  before: `{"index":${index},"text":`,
  body: harBodyText(body).utf8,
  after: '}',
});

const entries = (file: string): Array<{ index: number; text: string }> =>
  JSON.parse(readFileSync(file, 'utf8')).log.entries;

describe('openHarRecorder', () => {
  it('leaves a whole HAR after every flush, however many entries a batch holds', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacu-recorder-'));
    dirs.push(dir);
    const file = path.join(dir, 'out.har');
    const recorder = openHarRecorder(file, (error) => {
      throw error;
    });
    expect(entries(file)).toEqual([]);
    // More than one gathering write holds (IOV_MAX): the batch is written in several.
    for (let index = 0; index < 1000; index++) recorder.add(entry(index));
    recorder.flush();
    expect(entries(file).map((item) => item.index)).toEqual([...Array(1000).keys()]);
    const shared = entry(1000, 'Zoë "quoted" ☃');
    recorder.add(shared);
    recorder.add({ ...shared, before: '{"index":1001,"text":' });
    recorder.flush();
    const all = entries(file);
    expect(all).toHaveLength(1002);
    expect(all.at(-1)).toEqual({ index: 1001, text: 'Zoë "quoted" ☃' });
    await recorder.close();
    expect(recorder.recorded).toBe(1002);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
