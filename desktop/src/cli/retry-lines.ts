/**
 * The server's comings and goings as av-upload says them while it runs: each retry as a line on stderr
 * ("Server unreachable at http://…: retrying in 8 s (attempt 3)") or a JSON line ({"event":"retry",…}),
 * the return of the server, and the state kept for `av-upload status` (live-state.ts).
 */
import type { ConnectionState, EngineEvent, RetryEvent, UploadEngine } from '../engine/engine.js';
import type { Io } from './io.js';
import { writeLiveState } from './live-state.js';

export function retryLine(
  event: Pick<RetryEvent, 'server' | 'reason' | 'message' | 'attempt' | 'delayMs'>,
): string {
  const seconds = Math.max(1, Math.round(event.delayMs / 1000));
  const where =
    event.reason === 'unreachable'
      ? `Server unreachable at ${event.server}`
      : `Server error at ${event.server} (${event.message.replace(/\.$/, '')})`;
  return `${where}: retrying in ${seconds} s (attempt ${event.attempt})`;
}

/**
 * Says every retry and change of connection from now on; `beforeLine` clears a progress line being
 * redrawn. Returns the function that stops it (the last state stays in connection.json, marked ended).
 */
export function announceConnection(
  engine: UploadEngine,
  o: Io,
  home: string,
  command: string,
  beforeLine: () => void = () => undefined,
): {
  off: () => void;
  lastWaiting: () => (ConnectionState & { state: 'waiting' }) | null;
  /** Since when (epoch ms) the server has not answered: the first retry since it last did. */
  silentSince: () => number | null;
} {
  let since: number | null = null;
  let last = '';
  let lastAt = 0;
  let waiting: (ConnectionState & { state: 'waiting' }) | null = null;
  writeLiveState(home, { command, connection: engine.snapshot().connection });
  const off = engine.on((event: EngineEvent) => {
    if (event.type === 'retry') {
      since ??= Date.now();
      const line = retryLine(event);
      // Parts in flight fail together and each says so: one line for them.
      if (line === last && Date.now() - lastAt < 1_000) return;
      last = line;
      lastAt = Date.now();
      if (o.json) {
        o.event({
          event: 'retry',
          server: event.server,
          reason: event.reason,
          message: event.message,
          attempt: event.attempt,
          delayMs: event.delayMs,
          what: event.what,
        });
      } else {
        beforeLine();
        o.err(line);
      }
    } else if (event.type === 'connection') {
      const was = waiting;
      waiting = event.connection.state === 'waiting' ? event.connection : null;
      if (waiting) since ??= Date.now();
      else since = null;
      writeLiveState(home, { command, connection: event.connection });
      if (event.connection.state === 'online' && was) {
        if (o.json) o.event({ event: 'connection', state: 'online', server: was.server });
        else {
          beforeLine();
          o.err(`The server at ${was.server} answers again: continuing.`);
        }
      } else if (event.connection.state === 'waiting' && !was && o.json) {
        o.event({ event: 'connection', ...event.connection });
      }
    }
  });
  return {
    off: () => {
      off();
      writeLiveState(home, { command, connection: engine.snapshot().connection, ended: true });
    },
    lastWaiting: () => waiting,
    silentSince: () => since,
  };
}
