// npm run build (and prepare): compile to dist/ and copy the files the compiled code reads at run
// time next to it, since tsc emits only JavaScript and declarations.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const root = new URL('..', import.meta.url);
const at = (path) => new URL(path, root);
rmSync(at('dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
cpSync(at('spec/openapi.yaml'), at('dist/spec/openapi.yaml'));
cpSync(at('spec/statements.yaml'), at('dist/spec/statements.yaml'));
cpSync(at('contracts/pacts'), at('dist/contracts/pacts'), { recursive: true });
