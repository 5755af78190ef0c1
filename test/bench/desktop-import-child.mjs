// The desktop engine following one server-side import (bench:desktop row (d)), as a process of its own so
// that its resident set is measured alone. Prints the history entry as JSON when the import completes.
// Environment: BENCH_SERVER, BENCH_TOKEN, BENCH_FILE_ID, BENCH_SIZE.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../../build/scripts/lib.mjs';

const dist = (file) => pathToFileURL(join(root, 'desktop', 'dist', 'engine', file)).href;
const { UploadEngine } = await import(dist('engine.js'));
const { MemoryStore } = await import(dist('state.js'));

const engine = new UploadEngine({
  baseUrl: process.env.BENCH_SERVER,
  store: new MemoryStore(),
  token: () => process.env.BENCH_TOKEN,
  // The Drive stand-in takes any token: the account's refresh is not what is measured.
  cloud: { accessToken: async () => 'bench-drive-token' },
});
const id = process.env.BENCH_FILE_ID;
await engine.add(
  { form_type: 'creative', project_name: 'Import bench' },
  [],
  [
    {
      provider: 'google-drive',
      id,
      name: 'keynote.mov',
      folder: false,
      size: Number(process.env.BENCH_SIZE),
      modifiedAt: null,
      mimeType: 'video/quicktime',
      path: null,
      ref: `drive:${id}`,
    },
  ],
);
await engine.start();
await engine.whenIdle();
const snap = engine.snapshot();
await engine.stop();
if (snap.jobs.length > 0) {
  process.stderr.write(`the import did not complete: ${JSON.stringify(snap.jobs[0].files[0])}\n`);
  process.exit(4);
}
process.stdout.write(`${JSON.stringify(snap.history[0])}\n`);
