// Fetches Electron's binary for the desktop window. As the root `postinstall` it never fails the install:
// package.json's allowScripts keeps npm from running Electron's own install script, which exits non-zero
// wherever github.com cannot be reached (a proxy, an offline CI runner) and took every `npm install` with
// it, although only the desktop window needs the binary. Run with --strict (`npm run desktop:electron`) it
// shows Electron's own output and exit code.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { root } from './lib.mjs';

const strict = process.argv.includes('--strict');
const LATER = 'run `npm run desktop:electron` to fetch it';

/** Electron's install.js, or null where the desktop's devDependencies were not installed. */
function electronInstaller() {
  try {
    const manifest = createRequire(join(root, 'desktop', 'package.json')).resolve('electron/package.json');
    return join(dirname(manifest), 'install.js');
  } catch {
    return null;
  }
}

/** The last line of Electron's error output that says what went wrong, without the stack. */
function reasonOf(stderr) {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('at '));
  return lines.at(-1) ?? 'no reason given';
}

const installer = electronInstaller();
if (!installer) {
  if (strict) {
    console.error('Electron is not installed: run `npm install` first (without --omit=dev).');
    process.exit(1);
  }
  process.exit(0);
}

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD && !strict) {
  console.log(
    `Electron's binary was not downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD is set): the desktop window cannot launch yet; ${LATER}.`,
  );
  process.exit(0);
}

// Under --strict the variable would make install.js a silent no-op, which is not what was asked for.
const env = { ...process.env };
delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
const result = spawnSync(process.execPath, [installer], {
  cwd: dirname(installer),
  env,
  stdio: strict ? 'inherit' : ['ignore', 'inherit', 'pipe'],
  encoding: 'utf8',
});

if (strict) process.exit(result.status ?? 1);
if (result.status !== 0) {
  const reason = result.error?.message ?? reasonOf(result.stderr ?? '');
  console.log(
    `Electron's binary could not be downloaded (${reason}): the desktop window cannot launch yet; ${LATER}.`,
  );
}
