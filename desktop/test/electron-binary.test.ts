/**
 * build/scripts/electron-binary.mjs, the root postinstall that fetches Electron's binary: where the
 * download cannot happen the install still succeeds, with one line saying how to fetch it later, and
 * `npm run desktop:electron` fails with one line saying why (the site answered 404, or it is unreachable).
 * The download site is a local server that answers 404 to everything, as a proxy refusing it would.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_DIR, tempDir } from './helpers/api.js';

const SCRIPT = path.join(DESKTOP_DIR, '..', 'build', 'scripts', 'electron-binary.mjs');
let mirror: Server;
let mirrorUrl: string;
let cache: { dir: string; remove(): Promise<void> };

beforeAll(async () => {
  mirror = createServer((_req, res) => res.writeHead(404).end('Not Found'));
  await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
  mirrorUrl = `http://127.0.0.1:${(mirror.address() as AddressInfo).port}/`;
  cache = await tempDir();
});

afterAll(async () => {
  await new Promise((resolve) => mirror.close(resolve));
  await cache.remove();
});

async function install(args: string[] = [], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [SCRIPT, ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        ELECTRON_MIRROR: mirrorUrl,
        electron_config_cache: cache.dir,
        // Points past any binary this checkout already has, so the download is attempted here too.
        ELECTRON_OVERRIDE_DIST_PATH: path.join(cache.dir, 'no-electron-here'),
        ...env,
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the Electron binary at install time', () => {
  it('lets the install succeed with a one-line notice when the download fails', async () => {
    const result = await install();

    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Electron's binary could not be downloaded \(.*404.*\): the desktop window cannot launch yet; run `npm run desktop:electron` to fetch it\.$/,
      ),
    ]);
  });

  it('does not try the download when ELECTRON_SKIP_BINARY_DOWNLOAD is set, and says so', async () => {
    const result = await install([], {
      ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
      ELECTRON_MIRROR: 'http://127.0.0.1:9/',
    });

    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(
      "Electron's binary was not downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD is set): the desktop window cannot launch yet; run `npm run desktop:electron` to fetch it.",
    );
  });

  it('fails with one line saying why when asked for the binary explicitly (no stack trace)', async () => {
    const result = await install(['--strict']);

    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Electron's binary could not be downloaded \(the download site answered 404( Not Found)?\); then run `npm run desktop:electron` again\.$/,
      ),
    ]);
  });

  it('says the download site could not be reached when offline, in one line', async () => {
    // Port 9 (discard) on loopback: nothing listens, the connection is refused as offline ones are.
    const result = await install(['--strict'], { ELECTRON_MIRROR: 'http://127.0.0.1:9/' });

    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toEqual([
      "Electron's binary could not be downloaded (the download site could not be reached: no network, or a proxy is needed (set HTTPS_PROXY) or a mirror (ELECTRON_MIRROR)); then run `npm run desktop:electron` again.",
    ]);
  });
});
