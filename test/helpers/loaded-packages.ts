// Which packages a pacu process loaded: a preload (node's --require) that reports, as the process
// exits, which of the named node_modules folders any module it required came from.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const MARK = 'LOADED ';

/** A preload file reporting, for each name, whether a required module's path held `node_modules/<folder>/`. */
export function loadedPackagesPreload(folders: Readonly<Record<string, string>>): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'pacu-loads-')), 'watch.cjs');
  writeFileSync(
    file,
    `const { createRequire } = require('node:module');
const folders = ${JSON.stringify(folders)};
process.on('exit', () => {
  const files = Object.keys(createRequire(__filename).cache);
  const used = {};
  for (const [name, folder] of Object.entries(folders))
    used[name] = files.some((file) => file.includes('/node_modules/' + folder + '/'));
  process.stderr.write('\\n${MARK}' + JSON.stringify(used) + '\\n');
});`,
  );
  return file;
}

/** The report the preload wrote into `stderr`, or undefined when there is none. */
export function loadedPackages(stderr: string): Record<string, boolean> | undefined {
  const line = stderr.split('\n').find((text) => text.startsWith(MARK));
  return line === undefined ? undefined : (JSON.parse(line.slice(MARK.length)) as Record<string, boolean>);
}
