/**
 * `npm run desktop:bridge -- --server http://127.0.0.1:3000`: the renderer in a plain browser, driving a
 * real DesktopService (engine included) in this process. DEVELOPMENT ONLY: the token is kept in memory
 * and the queue in memory unless --state names a JSON file; nothing here is part of the Electron app.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { JsonFileStore, MemoryStore } from '../engine/index.js';
import { DesktopService } from '../main/service.js';
import type { TokenVault } from '../main/service.js';
import { createBridgeServer } from './server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

const USAGE = `Usage: npm run desktop:bridge -- [--server URL] [--port 5180] [--host 127.0.0.1] [--state FILE] [--renderer DIR]
  --server    the API server the engine talks to (default $AV_UPLOAD_SERVER or http://127.0.0.1:3000)
  --port      where the bridge listens (0: any free port)
  --host      a loopback address (the bridge reads files from this machine; it is never exposed)
  --state     keep the queue and history in this JSON file instead of memory
  --renderer  the built renderer (default desktop/dist/renderer)`;

/** The token in memory: the bridge forgets the sign-in when it stops (the app keeps it with safeStorage). */
export function memoryVault(): TokenVault {
  let saved: ReturnType<TokenVault['read']> = null;
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

  const store = values.state ? new JsonFileStore(path.resolve(values.state)) : new MemoryStore();
  const service = new DesktopService(memoryVault(), store, values.server);
  const server = createBridgeServer({
    service,
    rendererDir: values.renderer,
    shimFile: path.join(here, 'client', 'shim.js'),
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
    void service.close().finally(() => process.exit(0));
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
