// What a newcomer misread or met too late: each is one line that says what is wrong in the
// reader's words, and a refusal comes before the work, not after it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_FILE } from '../spec/index.ts';
import { startProxyCli } from './helpers/proxy-process.ts';
import { runCli } from './helpers/run-cli.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pacu-newcomer-'));
const file = (name: string, text: string): string => {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
};

describe('a file pacu cannot parse is told with where, not in the parser words', () => {
  it('JSON: a recording that is not JSON', async () => {
    const har = file('notes.har', 'not a har, just notes\n');
    const run = await runCli(['mock', '--from-recording', har, '--port', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `pacu: ${har} is not a HAR recording: it is not JSON (line 1, column 2: unexpected "o"; it begins "not a har, just notes")\n`,
    );
  });

  it('YAML: a description that does not parse', async () => {
    const broken = file('openapi.yaml', 'openapi: 3.1.0\npaths:\n  /users: get: x\n');
    const run = await runCli(['diff', DEFAULT_SPEC_FILE, broken]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `pacu: ${broken} is not an OpenAPI description: it is not valid YAML (line 3, column 11: nested mappings are not allowed in compact mappings)\n`,
    );
  });
});

describe('refused before the work, not after it', () => {
  it('a report file that takes no writes (/proc/version) refuses the run before it starts', async () => {
    // An unreachable target: had the run started first, this would say so instead.
    const run = await runCli([
      'check',
      '--target',
      'http://127.0.0.1:1/v3',
      '--reporter',
      'json:/proc/version',
    ]);
    expect(run.stderr).toBe('pacu: cannot write the json report to /proc/version: it takes no writes: EIO\n');
    expect(run.code).toBe(2);
  });

  it('proxy: an upstream that takes no connection is one warning line at start, or a refusal with --require-upstream', async () => {
    const refused = await runCli(['proxy', '--upstream', 'http://127.0.0.1:1/v3', '--require-upstream']);
    expect(refused.stderr).toBe(
      'pacu: cannot reach the upstream http://127.0.0.1:1/v3: connection refused. Is --upstream right and the sandbox up?\n',
    );
    expect(refused.code).toBe(2);
    const proxy = await startProxyCli(['--upstream', 'http://127.0.0.1:1/v3']);
    proxy.child.kill('SIGTERM');
    await proxy.exit;
    expect(proxy.stderr().split('\n')[0]).toBe(
      'pacu proxy: warning: cannot reach the upstream http://127.0.0.1:1/v3: connection refused; requests get 502 until it answers (--require-upstream refuses to start instead)',
    );
  });

  it('mock --from-recording: a recording with nothing to learn is refused in one line, before the mock starts', async () => {
    const empty = file(
      'empty.har',
      JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [] } }),
    );
    const run = await runCli(['mock', '--from-recording', empty, '--port', '0']);
    expect(run.stderr).toBe(
      `pacu: ${empty} holds no exchanges: a mock would learn nothing from it (record one with pacu proxy --record FILE, or pacu record)\n`,
    );
    expect(run.code).toBe(2);
  });
});
