/**
 * The engine process's entry point: Electron's utilityProcess.fork (src/main/index.ts) or Node's
 * child_process.fork with `serialization: 'advanced'` (tests, the development bridge). It serves the
 * DesktopService until the parent says 'close', or until the parent is gone.
 */
import { serveEngine } from './host.js';
import type { HostPort } from './protocol.js';

/** Electron's parentPort (a MessagePortMain), present only in a utility process. */
interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

function hostPort(): HostPort {
  const parentPort = (process as NodeJS.Process & { parentPort?: ParentPort }).parentPort;
  if (parentPort) {
    return {
      post: (message) => parentPort.postMessage(message),
      listen: (listener) => parentPort.on('message', (event) => listener(event.data)),
    };
  }
  if (process.send) {
    return {
      post: (message) => void process.send?.(message),
      listen: (listener) => void process.on('message', listener),
    };
  }
  throw new Error('The upload engine runs only as a child of the app (no parent port or IPC channel).');
}

const host = serveEngine(hostPort());

// An engine with nothing to send has no timer or socket of its own that keeps a process alive (they are
// unref'd for the CLI, which exits when done); this one lives until the parent closes it.
const alive = setInterval(() => undefined, 1 << 30);

void host.closed.then(() => {
  clearInterval(alive);
  process.exit(0);
});

// A forked child whose parent died would otherwise go on uploading unseen (a utility process is ended
// with the app by Electron itself).
process.on('disconnect', () => process.exit(0));

process.on('uncaughtException', (error) => {
  // The last line for support; the parent sees the exit and starts a new engine on the saved queue.
  host.log()?.write('error', 'engine process crashed', { message: error.message, stack: error.stack });
  process.exit(70);
});
