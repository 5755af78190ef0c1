/**
 * How long the engine waits on the network before it gives an attempt up (and tries again, or leaves it to
 * the connection monitor): to connect; for any byte on a socket that should be moving (a part whose body
 * stopped going out, an answer that never comes: the part is aborted and sent again from its start); for
 * the answer to a call; for the answer to a file's completion (the server may read the whole file again to
 * check its sha-256). Environment variables in seconds (README 'The desktop uploader'); a value that is not
 * a positive number stops with a line naming it.
 */
export interface EngineTimeouts {
  connectMs: number;
  /** No byte either way on the socket for this long: the attempt is aborted (a stalled part is sent again). */
  idleMs: number;
  /** One attempt of a call (creating a submission, registering a file, sending the submission). */
  responseMs: number;
  /** One attempt of a file's completion. */
  completeMs: number;
  /** Reading one file's media facts before it is queued (then it is sent as "Could not read…"). */
  factsMs: number;
}

export const DEFAULT_TIMEOUTS: EngineTimeouts = {
  connectMs: 10_000,
  idleMs: 60_000,
  responseMs: 30_000,
  completeMs: 300_000,
  factsMs: 30_000,
};

const VARIABLES: [keyof EngineTimeouts, string][] = [
  ['connectMs', 'AV_UPLOAD_CONNECT_TIMEOUT'],
  ['idleMs', 'AV_UPLOAD_IDLE_TIMEOUT'],
  ['responseMs', 'AV_UPLOAD_RESPONSE_TIMEOUT'],
  ['completeMs', 'AV_UPLOAD_COMPLETE_TIMEOUT'],
  ['factsMs', 'AV_UPLOAD_FACTS_TIMEOUT'],
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
