/**
 * The compiled CLI and engine host several files run (bin/av-upload.js, dist/engine-host/child.js) are
 * built once before any file starts: files run side by side, and two `tsc -b` writing desktop/dist at once
 * could hand a half-written module to a third. Each file's own `tsc -b` then finds it up to date. The
 * compiled API they talk to (api/dist/server.js, helpers/api.ts) is built by api's global setup, which
 * vitest.config.ts runs before this one.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const DESKTOP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TSC = path.join(DESKTOP_DIR, '..', 'node_modules', 'typescript', 'bin', 'tsc');

export default async function setup(): Promise<void> {
  await promisify(execFile)(process.execPath, [TSC, '-b', path.join(DESKTOP_DIR, 'tsconfig.json')]);
}
