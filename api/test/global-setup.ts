/**
 * The files that run the API as a child process (the cluster, kill -9, server, uploads-fault, the CLI,
 * backup, migrations and seed tests) run it compiled, from api/dist, as production and the e2e server do:
 * a start through tsx on the sources cost 3.1–3.6 s of CPU, compiled 1.7–1.9 s, and those files start
 * dozens. It is built here, once, before any file starts, so they still test the current sources; files run
 * side by side, and two `tsc -b` writing api/dist at once could hand a half-written module to a third.
 * desktop's project runs this too (its API child is api/dist); the second build finds it up to date.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TSC = path.join(API_DIR, '..', 'node_modules', 'typescript', 'bin', 'tsc');

export default async function setup(): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, [TSC, '-b', path.join(API_DIR, 'tsconfig.json')], {
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    // tsc prints its errors on standard output, which execFile's message leaves out.
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`api/dist could not be built, so no test that runs it can start:\n${stdout}${stderr}`, {
      cause: error,
    });
  }
}
