#!/usr/bin/env node
// The av-upload command: runs the compiled CLI (npm run build:ts, or `npx tsc -b desktop/tsconfig.json`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
if (!existsSync(main)) {
  process.stderr.write('av-upload is not built yet: run `npm run build:ts` at the repository root.\n');
  process.exit(1);
}
await import(main);
