import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generatedFiles, onDisk } from '../scripts/generated-files.ts';

// The generated reference and types follow the code: a new flag, rule, decision or statement makes
// its file stale until `npm run generate` (one command, for every file) rewrites it.
describe('files npm run generate writes', async () => {
  const files = await generatedFiles();

  it('cover the commands, the rules, the decisions, the statements and the traceability', () => {
    expect(files.map((file) => file.path)).toEqual(
      expect.arrayContaining([
        'docs/reference/commands.md',
        'docs/reference/rules.md',
        'docs/reference/decisions.md',
        'docs/reference/traceability.md',
      ]),
    );
  });

  it.each(files.map((file) => [file.path, file] as const))('%s is up to date', async (_path, file) => {
    const current = await readFile(onDisk(file), 'utf8').catch(() => '');
    expect(current === file.text, `${file.path} is stale: run npm run generate`).toBe(true);
  });
});
