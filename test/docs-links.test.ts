// Links between the README, the guides and the reference are what a reader follows: each relative
// link must name a file of the repository, and an anchor a heading of that file.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { documentedFiles } from './package/readme-blocks.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const FILES = [...documentedFiles(root), 'CONTRIBUTING.md', 'docs/README.md', 'docs/performance.md'];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replaceAll(' ', '-');

const headings = (file: string): Set<string> =>
  new Set([...readFileSync(file, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1] ?? '')));

describe('the guides', () => {
  it('each open with the command a user pastes, right under the title', () => {
    const late = documentedFiles(root)
      .filter((file) => file.startsWith('docs/guides/'))
      .filter((file) => !/^# .+\n\n```sh\n/.test(readFileSync(path.join(root, file), 'utf8')));
    expect(late).toEqual([]);
  });
});

describe('links in the documentation', () => {
  it('name files that exist, and headings that exist', () => {
    const broken: string[] = [];
    for (const file of FILES) {
      const text = readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [where = '', hash] = target.split('#');
        const resolved =
          where === '' ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), where);
        if (!existsSync(resolved)) broken.push(`${file}: ${target}`);
        else if (hash && resolved.endsWith('.md') && !headings(resolved).has(hash))
          broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
