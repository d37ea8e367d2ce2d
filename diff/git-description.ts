import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SpecError } from '../spec/index.ts';
import { type Node, parseDescription } from './internal/description.ts';

/**
 * The description `file` as it was at git revision `ref` (`git show REF:./file`, run beside the
 * file so the path is the one in the working tree), labelled `ref:file`.
 */
export async function descriptionAtRef(
  ref: string,
  file: string,
): Promise<{ label: string; document: Node }> {
  const absolute = path.resolve(file);
  const label = `${ref}:${file}`;
  const folder = path.dirname(absolute);
  // git runs in the file's folder: a missing folder would read as "spawn git ENOENT", git missing.
  if (!existsSync(folder))
    throw new SpecError(
      `pacu: cannot read ${label} from git: the folder ${path.dirname(file)} does not exist (--base reads the file at that path inside a git checkout)`,
    );
  const text = await new Promise<string>((resolve, reject) => {
    execFile(
      'git',
      ['show', `${ref}:./${path.basename(absolute)}`],
      { cwd: folder, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const reason =
            (error as NodeJS.ErrnoException).code === 'ENOENT'
              ? 'git is not installed, or not on PATH'
              : String(stderr).trim().split('\n')[0] || (error as Error).message;
          reject(
            new SpecError(`pacu: cannot read ${label} from git: ${reason.replace(/^fatal: /, '')}`, {
              cause: error,
            }),
          );
        } else resolve(stdout);
      },
    );
  });
  return { label, document: parseDescription(text, label) };
}
