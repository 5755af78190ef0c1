// Fetches Electron's binary for the desktop window. As the root `postinstall` it never fails the install:
// package.json's allowScripts keeps npm from running Electron's own install script, which exits non-zero
// wherever github.com cannot be reached (a proxy, an offline CI runner) and took every `npm install` with
// it, although only the desktop window needs the binary. Run with --strict (`npm run desktop:electron`) it
// keeps Electron's exit code and shows its progress, and a failure is one line saying why and what to do
// (Electron's own error is an 11-line stack trace that never says the network is the cause).
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

/** Why the download failed, in words: the site unreachable (offline, a proxy) or what it answered. */
function words(reason) {
  if (
    /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|socket hang up/i.test(
      reason,
    )
  )
    return 'the download site could not be reached: no network, or a proxy is needed (set HTTPS_PROXY) or a mirror (ELECTRON_MIRROR)';
  const status =
    /Response code (\d{3})(?: \(([^)]*)\))?/i.exec(reason) ?? /\b(\d{3}) \(([^)]*)\)/.exec(reason);
  if (status) return `the download site answered ${status[1]}${status[2] ? ` ${status[2]}` : ''}`;
  return reason;
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
  stdio: ['ignore', 'inherit', 'pipe'],
  encoding: 'utf8',
});

if (result.status !== 0) {
  const reason = words(result.error?.message ?? reasonOf(result.stderr ?? ''));
  if (strict) {
    console.error(
      `Electron's binary could not be downloaded (${reason}); then run \`npm run desktop:electron\` again.`,
    );
    process.exit(result.status ?? 1);
  }
  console.log(
    `Electron's binary could not be downloaded (${reason}): the desktop window cannot launch yet; ${LATER}.`,
  );
}
