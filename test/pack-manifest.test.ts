// `npm pack` swaps the repository's package.json for the shipped one and back (prepack, postpack)
// while the test run's other processes read it: the swap is a rename, never a rewrite in place,
// which a reader can catch empty (vitest once failed to load a test file: "package.json: File is empty").
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of scripts/, without declarations
import { restoreManifest, shipManifest } from '../scripts/pack-manifest.mjs';

const MANIFEST = {
  name: 'pacu-kit',
  type: 'module',
  scripts: { prepare: 'node scripts/build.mjs --if-stale' },
  dependencies: { commander: '1.0.0' },
  devDependencies: { vitest: '1.0.0' },
};

describe('the manifest npm pack ships', () => {
  it('replaces package.json by a rename, without scripts and devDependencies, and puts it back', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacu-manifest-'));
    const file = path.join(dir, 'package.json');
    const original = `${JSON.stringify(MANIFEST, null, 2)}\n`;
    writeFileSync(file, original);
    const before = statSync(file).ino;
    shipManifest(dir);
    expect(statSync(file).ino).not.toBe(before);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      name: 'pacu-kit',
      type: 'module',
      dependencies: { commander: '1.0.0' },
    });
    restoreManifest(dir);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });
});
