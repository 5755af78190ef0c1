/**
 * How long the engine waits on the network before it gives a call up (and the connection monitor tries
 * again): to connect, for any byte on a socket that should be moving (a part's body stalled, an answer
 * that never comes), and for an answer's headers once a request is sent. Environment variables in seconds
 * (README 'The desktop uploader'); a value that is not a positive number stops with a line naming it.
 */
export interface EngineTimeouts {
  connectMs: number;
  /** No byte either way on the socket for this long: the request is aborted (a stalled part is retried). */
  idleMs: number;
  /** Headers of the answer not received this long after the request was sent. */
  responseMs: number;
}

export const DEFAULT_TIMEOUTS: EngineTimeouts = { connectMs: 10_000, idleMs: 60_000, responseMs: 120_000 };

const VARIABLES: [keyof EngineTimeouts, string][] = [
  ['connectMs', 'AV_UPLOAD_CONNECT_TIMEOUT'],
  ['idleMs', 'AV_UPLOAD_IDLE_TIMEOUT'],
  ['responseMs', 'AV_UPLOAD_RESPONSE_TIMEOUT'],
];

export function timeoutsFromEnv(env: NodeJS.ProcessEnv = process.env): EngineTimeouts {
  const timeouts = { ...DEFAULT_TIMEOUTS };
  for (const [key, name] of VARIABLES) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const seconds = Number(raw);
    if (!Number.isFinite(seconds) || seconds <= 0)
      throw new Error(`${name} must be a number of seconds above 0 (it is '${raw}').`);
    timeouts[key] = Math.round(seconds * 1000);
  }
  return timeouts;
}
