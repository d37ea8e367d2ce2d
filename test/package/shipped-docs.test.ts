// The guides travel with the package: someone who installed pacu-kit from npm follows the README's
// links inside node_modules/pacu-kit, where every relative link must name a file that was shipped.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { installed } from './installed.ts';

const shipped = path.join(inject('project'), 'node_modules/pacu-kit');
let tarballFiles: readonly string[] = [];

beforeAll(async () => {
  ({ tarballFiles } = await installed());
}, 300_000);

/** The relative links of a markdown file, outside its code blocks, without their anchors. */
function relativeLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target = '']) => target.split('#')[0] ?? '')
    .filter((target) => target !== '' && !/^[a-z]+:/.test(target));
}

describe('the guides in the package', () => {
  it('ships every guide, the docs index and the reference', () => {
    expect(tarballFiles).toEqual(
      expect.arrayContaining([
        'docs/README.md',
        'docs/guides/mock-in-ci.md',
        'docs/guides/checking-a-sandbox.md',
        'docs/guides/diff-gate.md',
        'docs/reference/commands.md',
      ]),
    );
  });

  it("leaves none of the README's or the shipped docs' relative links pointing outside what was installed", () => {
    const markdown = tarballFiles.filter((file) => file.endsWith('.md') && !file.startsWith('dist/'));
    expect(markdown).toContain('README.md');
    const broken = markdown.flatMap((file) =>
      relativeLinks(path.join(shipped, file))
        .filter((target) => !existsSync(path.resolve(path.dirname(path.join(shipped, file)), target)))
        .map((target) => `${file}: ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('names in package.json where the docs are', () => {
    const manifest = JSON.parse(readFileSync(path.join(shipped, 'package.json'), 'utf8'));
    expect(manifest.directories?.doc).toBe('docs');
    expect(existsSync(path.join(shipped, manifest.directories.doc, 'README.md'))).toBe(true);
  });
});
