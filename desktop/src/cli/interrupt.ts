/**
 * Ctrl-C or SIGTERM: the engine a command opened stops (its queue saved) and the command ends with
 * EXIT.interrupted; with no engine open yet, the process ends at once.
 */
import type { UploadEngine } from '../engine/engine.js';
import { EXIT } from './errors.js';

let openedEngine: UploadEngine | null = null;
let stopping: Promise<void> | null = null;
let onInterrupt: (code: number) => void = () => undefined;

/** Resolves with EXIT.interrupted once a signal has stopped the open engine; never otherwise. */
export const interrupted = new Promise<number>((resolve) => (onInterrupt = resolve));

export function handleSignals(): void {
  const handler = () => {
    if (!openedEngine) process.exit(EXIT.interrupted);
    stopping = openedEngine.stop();
    void stopping.then(() => onInterrupt(EXIT.interrupted));
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

/** The engine a signal stops from now on. */
export function stopOnSignal(engine: UploadEngine): void {
  openedEngine = engine;
}

/** The stop a signal began, if one came. */
export function signalStop(): Promise<void> | null {
  return stopping;
}
