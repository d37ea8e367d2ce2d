import { main } from '../../cli/main.ts';

/** Run the `pacu` CLI in-process and keep what it printed. */
export async function runCli(
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}
