#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so `pacu` works right after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
// A closed pipe (`pacu spec | head`) is the reader's choice, not an error worth a stack trace.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
