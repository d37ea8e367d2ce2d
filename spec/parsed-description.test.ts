import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDescription, parsedPathOf, sha256Of } from './parsed-description.ts';

describe('parseDescription', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-parsed-'));
  const file = path.join(dir, 'openapi.yaml');

  it('takes the build’s parsed copy when it was made from exactly this text', async () => {
    const text = 'openapi: 3.1.0\ninfo: { title: a }\n';
    writeFileSync(parsedPathOf(file), JSON.stringify({ sha256: sha256Of(text), document: { from: 'copy' } }));
    expect(await parseDescription(file, text)).toEqual({ from: 'copy' });
  });

  it('parses the YAML when the copy is stale, unreadable or missing', async () => {
    const text = 'openapi: 3.1.0\ninfo: { title: b }\n';
    const parsed = { openapi: '3.1.0', info: { title: 'b' } };
    writeFileSync(parsedPathOf(file), JSON.stringify({ sha256: sha256Of('other text'), document: {} }));
    expect(await parseDescription(file, text)).toEqual(parsed);
    writeFileSync(parsedPathOf(file), 'not json');
    expect(await parseDescription(file, text)).toEqual(parsed);
    expect(await parseDescription(path.join(dir, 'none.yaml'), text)).toEqual(parsed);
  });
});
