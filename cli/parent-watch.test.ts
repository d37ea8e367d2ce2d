import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { startedByNpm } from './parent-watch.ts';

const WATCH = new URL('./parent-watch.ts', import.meta.url).pathname;

describe('onParentGone', () => {
  it('tells a process whose parent shell died of SIGTERM, as dash does under npm exec', async () => {
    const script = `import(${JSON.stringify(WATCH)}).then((watch) => { watch.onParentGone(() => { console.log('gone'); process.exit(0); }, 20); console.log('ready'); setTimeout(() => process.exit(1), 20_000); })`;
    // `; true` keeps the shell in between (no exec of a last command), as npm's `sh -c` has it.
    const shell = spawn('sh', ['-c', '"$NODE" --import tsx -e "$SCRIPT"; true'], {
      env: { ...process.env, NODE: process.execPath, SCRIPT: script },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: shell.stdout });
    const read = (async function* () {
      for await (const line of lines) yield line;
    })();
    expect((await read.next()).value).toBe('ready');
    shell.kill('SIGTERM');
    expect((await read.next()).value).toBe('gone');
  }, 30_000);

  it('watches only where npm started pacu', () => {
    expect(startedByNpm({ npm_lifecycle_event: 'npx' })).toBe(true);
    expect(startedByNpm({})).toBe(false);
  });
});
