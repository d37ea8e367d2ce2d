import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PacuError } from '../spec/index.ts';
import type { VerifierJob, VerifierReply } from './verifier-process.ts';

// Compiled (dist/, as installed from npm) the child is plain JS; from the sources it runs through
// tsx, resolved from pacu, not the caller's folder. The tests, which run the sources, name the
// compiled child in PACU_VERIFIER_SCRIPT, as they start the compiled bin (decision 155).
const ENTRY =
  process.env.PACU_VERIFIER_SCRIPT ??
  fileURLToPath(
    new URL(
      import.meta.url.endsWith('.js') ? './verifier-process.js' : './verifier-process.ts',
      import.meta.url,
    ),
  );
const execArgv = (): string[] =>
  ENTRY.endsWith('.js')
    ? []
    : ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];

/** Run a verification job in a child process and wait for its reply; its stdout (Pact's own report) is dropped. */
export function runVerifierProcess(job: VerifierJob): Promise<VerifierReply> {
  return new Promise((resolve, reject) => {
    // Pact's verifier would post usage metrics and would publish results when this variable is set:
    // pacu publishes only with --publish, and nothing leaves for anywhere but target and broker.
    const { PACT_BROKER_PUBLISH_VERIFICATION_RESULTS: _publish, ...env } = process.env;
    const child = fork(ENTRY, [], {
      env: { ...env, PACT_DO_NOT_TRACK: 'true' },
      execArgv: execArgv(),
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    let reply: VerifierReply | undefined;
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = `${stderr}${chunk.toString('utf8')}`.slice(-4000);
    });
    child.on('message', (message: VerifierReply) => {
      reply = message;
    });
    child.on('error', (cause) =>
      reject(
        new PacuError('PACU_ERR_USAGE', `pacu: cannot start the Pact verifier: ${cause.message}`, { cause }),
      ),
    );
    child.on('exit', (code) => {
      if (reply) resolve(reply);
      else
        reject(
          new PacuError(
            'PACU_ERR_USAGE',
            `pacu: the Pact verifier stopped (exit ${code}) without a result: ${stderr.trim().split('\n').at(-1) ?? ''}`,
          ),
        );
    });
    child.send(job);
  });
}
