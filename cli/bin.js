#!/usr/bin/env node
// Development launcher: runs the TypeScript sources through tsx (a devDependency), so tests and
// `npm run pacu` never see a stale build. Users run the compiled dist/cli/bin.js.
import { register } from 'tsx/esm/api';

register();
await import('./bin.ts');
