// npm pack and npm publish (prepack and postpack): build, then ship a package.json without the
// repository's scripts and devDependencies. Its `prepare` names scripts/build.mjs, which is not in
// the tarball, and npm warns about every install script a user has not allowed; `npm ci` in the
// repository still runs `prepare` from the package.json that is checked in, restored after packing.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const manifest = new URL('../package.json', import.meta.url);
const kept = new URL('../.package.json.unpacked', import.meta.url);

/** Put the checked-in package.json back (also after a pack that stopped half way). */
function restore() {
  if (existsSync(kept)) renameSync(kept, manifest);
}

if (process.argv[2] === 'postpack') {
  restore();
} else {
  restore();
  execFileSync(process.execPath, [new URL('./build.mjs', import.meta.url).pathname, '--if-stale'], {
    stdio: 'inherit',
  });
  const text = readFileSync(manifest, 'utf8');
  const { scripts: _scripts, devDependencies: _devDependencies, ...shipped } = JSON.parse(text);
  writeFileSync(kept, text);
  writeFileSync(manifest, `${JSON.stringify(shipped, null, 2)}\n`);
}
