/**
 * The engine process as a plain Node child (child_process.fork), for the development bridge and the
 * tests: the same entry point, V8 flags and structured-clone messages as the app's utilityProcess.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINE_V8_FLAGS } from './protocol.js';
import type { EngineProcess } from './protocol.js';

/** The compiled entry point beside this file (dist/engine-host/child.js). */
export const ENGINE_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'child.js');

export function forkEngine(
  entry = ENGINE_ENTRY,
  /** Sees each child as it starts (a test kills one to play a crash). */
  spawned?: (child: ChildProcess) => void,
): EngineProcess {
  const child = fork(entry, [], {
    execArgv: ENGINE_V8_FLAGS,
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  spawned?.(child);
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    post: (message) => {
      // A message to a child that has just died is dropped; its exit is reported on its own.
      if (child.connected) child.send(message);
    },
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) => void exited.then(listener),
    kill: () => void child.kill('SIGKILL'),
  };
}
