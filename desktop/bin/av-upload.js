#!/usr/bin/env -S node --max-semi-space-size=4
// The av-upload command: runs the compiled CLI (npm run build:ts, or `npx tsc -b desktop/tsconfig.json`).
//
// --max-semi-space-size=4 (MiB): a long upload allocates a little per part (requests, progress) and
// V8 on Node 24 answers a steady allocation rate by growing the young generation (a heap of 85-90 MB
// for 15-30 MB live). For a background uploader memory matters more than collector throughput: with
// the cap a 10 GiB upload peaks at about 137 MB instead of 187 MB, at the same speed
// (`npm run bench:desktop`). npm's shims read the flags on Windows too (`env -S`).
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// Each run compiles the same modules again (zod, got, the shared core, the engine): with V8's code cached
// on disk (in the system's temporary folder, or NODE_COMPILE_CACHE), a command starts in less time.
// Node 22.1 and later; a cache that cannot be written is skipped without a word.
module.enableCompileCache?.();

const main = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
if (!existsSync(main)) {
  process.stderr.write('av-upload is not built yet: run `npm run build:ts` at the repository root.\n');
  process.exit(1);
}
await import(main);
