/**
 * `npm run desktop:bridge -- --server http://127.0.0.1:3000`: the renderer in a plain browser, driving a
 * real engine process (src/engine-host, forked as the app starts its utility process). DEVELOPMENT
 * ONLY: the token and cloud accounts are kept in memory and the queue in a temporary file unless --state
 * names one; nothing here is part of the Electron app. Cloud providers are configured by the same
 * AV_* variables as the app (engine/cloud/config.ts); their sign-in pages appear in the bridge's panel.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CloudAccounts, cloudSettings, MemoryAccountStore } from '../engine/cloud/index.js';
import { DailyLog } from '../engine/index.js';
import { EngineClient } from '../engine-host/client.js';
import { forkEngine } from '../engine-host/fork-engine.js';
import type { SavedSession } from '../engine-host/protocol.js';
import { cloudCalls } from '../main/cloud-calls.js';
import { createBridgeServer } from './server.js';
import { memoryCipher, SignInPages } from './sign-in.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

const USAGE = `Usage: npm run desktop:bridge -- [--server URL] [--port 5180] [--host 127.0.0.1] [--state FILE] [--log-dir DIR] [--renderer DIR]
  --server    the API server the engine talks to (default $AV_UPLOAD_SERVER or http://127.0.0.1:3000)
  --port      where the bridge listens (0: any free port)
  --host      a loopback address (the bridge reads files from this machine; it is never exposed)
  --state     keep the queue, history, settings and watch folders in this JSON file (default: a
              temporary file removed when the bridge stops)
  --log-dir   write the daily log file here, as the app does in its data folder
  --renderer  the built renderer (default desktop/dist/renderer)`;

/**
 * The token in this process's memory: the bridge forgets the sign-in when it stops (the app keeps it
 * with safeStorage). It outlives a crash of the engine process, as the app's vault does.
 */
export function memoryVault(): { read(): SavedSession | null; write(value: SavedSession | null): void } {
  let saved: SavedSession | null = null;
  return {
    read: () => saved,
    write: (value) => {
      saved = value;
    },
  };
}

function main(): void {
  const { values } = parseArgs({
    options: {
      server: { type: 'string', default: process.env.AV_UPLOAD_SERVER ?? 'http://127.0.0.1:3000' },
      port: { type: 'string', default: '5180' },
      host: { type: 'string', default: '127.0.0.1' },
      state: { type: 'string' },
      'log-dir': { type: 'string' },
      renderer: { type: 'string', default: path.join(here, '..', 'renderer') },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`Not a port: ${values.port}\n${USAGE}`);
  if (!LOOPBACK.has(values.host)) throw new Error(`--host must be a loopback address, not ${values.host}.`);

  const scratch = values.state ? null : mkdtempSync(path.join(tmpdir(), 'av-bridge-'));
  const stateFile = values.state ? path.resolve(values.state) : path.join(scratch!, 'engine-state.json');
  const logDir = values['log-dir'] ? path.resolve(values['log-dir']) : undefined;
  const log = logDir ? new DailyLog(logDir) : null;
  // The cloud accounts in this process, as in the app's main process: in memory, sealed with a key of
  // this run; the sign-in page is shown in the bridge's panel (sign-in.ts) instead of a system browser.
  const signIns = new SignInPages();
  const accounts = new CloudAccounts({
    store: new MemoryAccountStore(),
    cipher: memoryCipher(),
    settings: cloudSettings(process.env),
    openBrowser: signIns.open,
  });
  const engine = new EngineClient({
    cloud: accounts,
    spawn: () => forkEngine(),
    config: { defaultServer: values.server, stateFile, ...(logDir ? { logDir } : {}) },
    vault: memoryVault(),
  });
  engine.onCrash((crash) => console.error('The engine process ended unexpectedly:', crash));
  engine.start();
  const server = createBridgeServer({
    engine,
    logPath: () => log?.path() ?? null,
    rendererDir: values.renderer,
    shimFile: path.join(here, 'client', 'shim.js'),
    cloud: { calls: cloudCalls(accounts), signIns },
  });

  server.listen(port, values.host, () => {
    const address = server.address();
    const bound = typeof address === 'object' && address ? address.port : port;
    const host = values.host.includes(':') ? `[${values.host}]` : values.host;
    console.log(`AV Uploader development bridge on http://${host}:${bound}/ (API server ${values.server})`);
  });

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // The event streams never end on their own.
    server.closeAllConnections();
    server.close();
    void engine.stop().finally(() => {
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

try {
  main();
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
