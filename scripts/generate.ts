/**
 * `npm run generate`: rewrite every generated file (scripts/generated-files.ts lists them). With
 * `--check` it writes nothing and exits 1 when one is out of date. One command, so a merge that adds
 * a flag, a rule or a decision regenerates everything at once.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { DESCRIPTION_FILE, DESCRIPTION_TEXT } from '../spec/scripts/interface-description.ts';
import { generatedFiles, onDisk } from './generated-files.ts';

if (DESCRIPTION_TEXT === undefined)
  console.warn(`${DESCRIPTION_FILE} is absent: docs/reference/statements.md is left as it is`);
const check = process.argv.includes('--check');
let stale = 0;
for (const file of await generatedFiles()) {
  const current = await readFile(onDisk(file), 'utf8').catch(() => '');
  if (current === file.text) continue;
  if (check) {
    console.error(`${file.path} is out of date: run npm run generate`);
    stale += 1;
  } else {
    await writeFile(onDisk(file), file.text);
    console.log(`wrote ${file.path}`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;
