// npm pack and npm publish (prepack and postpack): build, then ship a package.json without the
// repository's scripts and devDependencies. Its `prepare` names scripts/build.mjs, which is not in
// the tarball, and npm warns about every install script a user has not allowed; `npm ci` in the
// repository still runs `prepare` from the package.json that is checked in, restored after packing.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Put the checked-in package.json of `dir` back (also after a pack that stopped half way). */
export function restoreManifest(dir) {
  const kept = path.join(dir, '.package.json.unpacked');
  if (existsSync(kept)) renameSync(kept, path.join(dir, 'package.json'));
}

/**
 * Keep the package.json of `dir` aside and put the shipped one in its place, by a rename: the tests
 * pack while other processes (vitest's resolver, tsc) read package.json, and a file rewritten in
 * place is empty for a moment.
 */
export function shipManifest(dir) {
  restoreManifest(dir);
  const manifest = path.join(dir, 'package.json');
  const text = readFileSync(manifest, 'utf8');
  const { scripts: _scripts, devDependencies: _devDependencies, ...shipped } = JSON.parse(text);
  writeFileSync(path.join(dir, '.package.json.unpacked'), text);
  const next = path.join(dir, '.package.json.shipped');
  writeFileSync(next, `${JSON.stringify(shipped, null, 2)}\n`);
  renameSync(next, manifest);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (process.argv[2] === 'postpack') restoreManifest(root);
  else {
    restoreManifest(root);
    execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-stale'], {
      stdio: 'inherit',
    });
    shipManifest(root);
  }
}
