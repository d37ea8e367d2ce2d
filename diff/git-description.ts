import { execFile } from 'node:child_process';
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
  const text = await new Promise<string>((resolve, reject) => {
    execFile(
      'git',
      ['show', `${ref}:./${path.basename(absolute)}`],
      { cwd: path.dirname(absolute), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const reason = String(stderr).trim().split('\n')[0] || (error as Error).message;
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
