// Pact's verifier matches regexes with its own engine (Oniguruma, through libpact_ffi), against the
// whole value. JavaScript's RegExp differs: it rejects `(?i)`, reads `\d` as ASCII only and finds
// partial matches. So pacu asks the very library the verifier runs (the one koffi binding here).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PacuError } from '../spec/index.ts';

type Check = (regex: string, value: string) => boolean;
let check: Check | undefined;

/** The FFI library that @pact-foundation/pact-core loads, found the way pact-core finds it. */
function libraryPath(): string {
  const pact = createRequire(createRequire(import.meta.url).resolve('@pact-foundation/pact'));
  const core = createRequire(pact.resolve('@pact-foundation/pact-core'));
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const musl =
    os === 'linux' && (core('detect-libc') as { isNonGlibcLinuxSync(): boolean }).isNonGlibcLinuxSync();
  const libc = os === 'linux' ? (musl ? '-musl' : '-glibc') : '';
  const root = join(
    core.resolve(`@pact-foundation/pact-core-${os}-${process.arch}${libc}/package.json`),
    '..',
  );
  const file = os === 'windows' ? 'pact_ffi.dll' : os === 'darwin' ? 'libpact_ffi.dylib' : 'libpact_ffi.so';
  return join(root, 'prebuilds', `${process.platform}-${process.arch}`, file);
}

function load(): Check {
  try {
    // Loaded on first use: importing contracts/ costs no FFI binding until a regex is judged.
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const library = koffi.load(libraryPath());
    return library.func('bool pactffi_check_regex(const char* regex, const char* example)') as Check;
  } catch (cause) {
    throw new PacuError(
      'PACU_ERR_USAGE',
      `pacu: cannot load Pact's FFI library to judge regexes: ${(cause as Error).message}`,
      { cause },
    );
  }
}

/**
 * Whether Pact's verifier would accept `value` for a regex matcher: Oniguruma syntax (so `(?i)`,
 * `\A`, `\z` work), the whole value must match. An invalid regex accepts nothing.
 *
 * @example
 * pactRegexMatches('(?i)^(active|frozen)$', 'ACTIVE'); // true, as in the verifier
 * pactRegexMatches('abc', 'xxabcxx'); // false: the verifier wants the whole value
 */
export function pactRegexMatches(regex: string, value: string): boolean {
  check ??= load();
  return check(regex, value);
}
