// Helpers shared by the build and start scripts: run a tool on the pinned Node and check build freshness.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The flags node runs the server with (`node $(flags) api/dist/server.js`; docs/decisions.md 'The server
 * starts V8's marking only at its limit'), kept in api/node-flags.json for every launcher to read.
 */
export const SERVER_NODE_FLAGS = JSON.parse(readFileSync(join(root, 'api', 'node-flags.json'), 'utf8'));

/** Runs a package's bin with the Node that runs this script (the pinned Node 24 under npm scripts). */
export function runBin(pkgBin, args, options = {}) {
  const result = spawnSync(process.execPath, [join(root, 'node_modules', pkgBin), ...args], {
    cwd: options.cwd ?? root,
    stdio: 'inherit',
    env: process.env,
  });
  if (result.status !== 0) {
    process.exit(result.status ?? 1);
  }
}

/** Newest modification time (ms) among the files under the given paths, skipping build output. */
export function newestMtime(paths) {
  let newest = 0;
  const walk = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) {
        if (entry === 'node_modules' || entry === 'dist') continue;
        walk(join(path, entry));
      }
    } else if (stat.mtimeMs > newest) {
      newest = stat.mtimeMs;
    }
  };
  for (const path of paths) walk(path);
  return newest;
}

export function compileTypeScript() {
  runBin('typescript/bin/tsc', ['-b', 'shared/tsconfig.json', 'api/tsconfig.json']);
}

export function buildWeb() {
  runBin('vite/bin/vite.js', ['build', '--logLevel', 'warn'], { cwd: join(root, 'web') });
  prerenderWeb(join(root, 'web', 'dist'));
}

/** Writes the public pages as complete HTML into DIST/prerender (build/scripts/prerender.mjs). */
export function prerenderWeb(distDir) {
  const result = spawnSync(
    process.execPath,
    [join(root, 'build', 'scripts', 'prerender.mjs'), '--dist', distDir],
    {
      cwd: root,
      stdio: 'inherit',
      env: process.env,
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** The web bundle is stale when any of its inputs (web sources, shared core) changed after the last full build. */
export function webIsStale() {
  // The prerender's manifest is the build's last file: missing or older than an input means rebuild.
  const built = join(root, 'web', 'dist', 'prerender', 'manifest.json');
  if (!existsSync(built)) return true;
  const inputs = [
    join(root, 'web', 'src'),
    join(root, 'web', 'public'),
    join(root, 'web', 'index.html'),
    join(root, 'web', 'vite.config.ts'),
    join(root, 'shared', 'src'),
    join(root, 'build', 'scripts', 'prerender.mjs'),
  ];
  return newestMtime(inputs) > statSync(built).mtimeMs;
}
