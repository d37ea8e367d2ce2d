// A fresh npm project with the packed pacu-kit installed, as a user gets it.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

/** `name@version` as pacu's own lock pins it, so the install comes from the npm cache `npm ci` filled. */
export const pinned = (name: string): string =>
  `${name}@${(JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version}`;

/** Make `project` (an empty folder) an ESM project holding the tarball, and TypeScript with Node's types as pacu pins them; npm's output. */
export async function freshProject(project: string, tarball: string): Promise<string> {
  writeFileSync(
    path.join(project, 'package.json'),
    '{ "name": "consumer", "private": true, "type": "module" }\n',
  );
  const { stdout, stderr } = await run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      tarball,
      pinned('typescript'),
      pinned('@types/node'),
    ],
    { cwd: project },
  );
  return `${stdout}${stderr}`;
}
