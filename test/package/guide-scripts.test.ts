// Two guide examples a newcomer ran as written and misread: the mock-in-ci script, whose `wait`
// must give the mock's own exit code, and the vitest example, which must run in a project that
// installed vitest, with no server started beside it. Both run here as pasted.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../helpers/free-port.ts';
import { run } from './fresh-project.ts';
import { installed } from './installed.ts';
import { readmeBlocks } from './readme-blocks.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const project = inject('project');
const guide = (file: string) => readmeBlocks(readFileSync(path.join(root, file), 'utf8'), file);

beforeAll(async () => {
  await installed();
}, 300_000);

describe('guide examples run as pasted', () => {
  it('the mock-in-ci script: the mock stops on kill and wait gives its exit code, 0, as the comment says', async () => {
    const block = guide('docs/guides/mock-in-ci.md').find(
      (candidate) => candidate.lang === 'sh' && candidate.code.includes('wait "$MOCK"'),
    );
    expect(block?.code).toMatch(/wait "\$MOCK" +# .*: 0$/m);
    const port = String(await freePort());
    const dir = path.join(project, 'ci-script');
    mkdirSync(dir, { recursive: true });
    // The script as in the guide, on a free port, run from a folder of the project by /bin/sh.
    const script = (block?.code ?? '')
      .replaceAll('4010', port)
      .replaceAll('node_modules/', '../node_modules/');
    const result = await run('sh', ['-c', script], { cwd: dir }).then(
      () => 0,
      (error: { code?: number }) => error.code ?? -1,
    );
    expect(result).toBe(0);
    expect(readFileSync(path.join(dir, 'pacu-mock.log'), 'utf8')).toContain(
      `pacu mock listening on http://127.0.0.1:${port}/v3`,
    );
  });

  it('the vitest example passes in a project that installed vitest, starting its own mock', async () => {
    const block = guide('docs/guides/library-api.md').find(
      (candidate) => candidate.lang === 'ts' && candidate.code.includes("from 'vitest'"),
    );
    const dir = path.join(project, 'vitest-example');
    mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
    // `npm install --save-dev vitest`, without the download: the repository's own vitest, linked in.
    symlinkSync(path.join(root, 'node_modules/vitest'), path.join(dir, 'node_modules/vitest'), 'dir');
    writeFileSync(path.join(dir, 'conformance.test.ts'), block?.code ?? '');
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('PACU_') && !name.startsWith('VITEST')),
    );
    const vitest = path.join(dir, 'node_modules/vitest/vitest.mjs');
    const outcome = await run(process.execPath, [vitest, 'run', 'conformance.test.ts'], {
      cwd: dir,
      env,
    }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({
        code: error.code ?? -1,
        stdout: `${error.stdout}${error.stderr}`,
      }),
    );
    expect(outcome.stdout).toContain('1 passed');
    expect(outcome.code).toBe(0);
  });
});
