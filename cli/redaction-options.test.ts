import { describe, expect, it } from 'vitest';
import { main } from './main.ts';

async function run(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await main(args, {
    stdout: () => {},
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stderr };
}

describe('--redact-header and --redact-field', () => {
  it.each(['mock', 'proxy', 'check', 'replay', 'verify'])(
    'pacu %s refuses a name that is no header or field name with one line and exit 2',
    async (command) => {
      for (const flag of ['--redact-header', '--redact-field']) {
        const { code, stderr } = await run([command, flag, 'two words']);
        expect(code).toBe(2);
        expect(stderr.trim().split('\n')).toHaveLength(1);
        expect(stderr).toContain(flag);
      }
    },
  );
});
