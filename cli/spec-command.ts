import type { Command } from 'commander';
import { loadSpec } from '../spec/index.ts';
import type { CliIo, CommandOutcome } from './cli-io.ts';

interface SpecCommandOptions {
  spec?: string;
  json?: boolean;
}

/** `pacu spec`: what pacu's OpenAPI description covers, and the decisions it takes. */
export function registerSpecCommand(program: Command, io: CliIo, _outcome: CommandOutcome): void {
  program
    .command('spec')
    .description("summarise pacu's OpenAPI description: operations, security, webhooks and decisions")
    .option('--spec <file>', 'OpenAPI description to read (default: the one pacu ships)')
    .option('--json', 'print one JSON document instead of text')
    .action(async (options: SpecCommandOptions) => {
      const spec = await loadSpec(options.spec);
      const operations = spec.operations.map((operation) => ({
        operationId: operation.id,
        method: operation.method.toUpperCase(),
        path: `${spec.basePath}${operation.path}`,
        security:
          operation.security.kind === 'bearer'
            ? `bearer${operation.security.scopes.length ? ` (${operation.security.scopes.join(', ')})` : ''}`
            : operation.security.kind,
        statuses: [...operation.responses.keys()],
      }));
      if (options.json) {
        io.stdout(
          `${JSON.stringify({ file: spec.file, version: spec.version, operations, webhooks: spec.webhooks.map((w) => w.type), decisions: spec.decisions })}\n`,
        );
        return;
      }
      io.stdout(`${spec.title} ${spec.version} (${spec.file})\n\n`);
      const width = Math.max(...operations.map((o) => `${o.method} ${o.path}`.length));
      for (const o of operations) {
        io.stdout(
          `  ${`${o.method} ${o.path}`.padEnd(width)}  ${o.operationId.padEnd(20)}  ${o.security.padEnd(20)}  ${o.statuses.join(' ')}\n`,
        );
      }
      io.stdout(`\nwebhooks: ${spec.webhooks.map((w) => w.type).join(', ')}\n`);
      io.stdout(`decisions where the interface description is silent: ${spec.decisions.length}\n`);
      for (const decision of spec.decisions) io.stdout(`  ${decision.pointer}\n`);
    });
}
