/**
 * Building the desktop app for its browser and Electron specs: both compile into desktop/dist, so one
 * compile at a time on this checkout, under a lock folder (stale after 5 minutes, as a killed run leaves it).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '..', '..');

export function run(args: string[]): void {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`Build step failed: ${args.join(' ')}`);
}

export function withBuildLock(build: () => void): void {
  const lock = join(root, 'test', '.tmp', 'desktop-build.lock');
  mkdirSync(join(root, 'test', '.tmp'), { recursive: true });
  const until = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock left by a killed run is stale after 5 minutes.
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - since > 300_000) {
        rmSync(lock, { recursive: true, force: true });
      } else if (Date.now() > until) {
        throw new Error(`Waited 5 minutes for ${lock}`);
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
