#!/usr/bin/env node
// The `pacu` executable. Compiled to dist/cli/bin.js; `cli/bin.js` runs this file from the sources.
import { main } from './main.ts';

// A closed pipe (`pacu spec | head`) is the reader's choice, not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
process.exitCode = await main(process.argv.slice(2));
