/**
 * What went wrong with a call, in words a person reads, and what the engine does about it: no answer or a
 * server error waits for the server (offline-first), a refused token stops with 'auth', any other refusal
 * names the server's own message. Raw codes (ECONNREFUSED, ETIMEDOUT) never reach the window or the
 * terminal alone.
 */
import { isRetryableAnswer, SESSION_EXPIRED, UploadError } from '@avp/shared';
import type { Failure } from './connection.js';

/** A request that got no HTTP answer; the message is words, the code the system's. */
export class NetworkError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'NetworkError';
  }
}

/** The system's or got's error for a request that got no answer, as a sentence naming the server. */
export function networkWords(error: unknown, server: string, timeouts?: { connectMs: number }): NetworkError {
  const e = error as { code?: string; name?: string; event?: string; message?: string } | undefined;
  const code = e?.code ?? e?.name ?? 'ERR';
  let words: string;
  switch (code) {
    case 'ECONNREFUSED':
      words = `Nothing answers at ${server} (the connection was refused).`;
      break;
    case 'ETIMEDOUT':
    case 'TimeoutError':
      words =
        e?.event === 'connect' && timeouts
          ? `No answer from ${server} within ${Math.round(timeouts.connectMs / 1000)} s.`
          : `${server} stopped answering (no data for too long).`;
      break;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
      words = `The connection to ${server} was cut.`;
      break;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      words = `The name of ${server} could not be looked up (no network, or a wrong address).`;
      break;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENETDOWN':
    case 'EHOSTDOWN':
      words = `${server} cannot be reached from this network.`;
      break;
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      words = `The certificate of ${server} is not trusted, so nothing was sent.`;
      break;
    default:
      words = `No answer from ${server}.`;
  }
  return new NetworkError(words, code);
}

export type Verdict =
  /** No answer, or the server busy or failing: kept, tried again when the server answers. */
  | { kind: 'wait'; failure: Failure }
  /** A token refused: stop, sign in again. */
  | { kind: 'auth'; error: { code: 'auth'; message: string } }
  /** The server refused with its own message: the file or job fails with it. */
  | { kind: 'server'; error: { code: string; message: string } }
  /** Not the server's doing (a file changed, a read failed): the caller handles it. */
  | { kind: 'local' };

/**
 * An error of a call judged. `last` is the latest failure seen on the wire, which names the cause when the
 * client's own error does not (a part's failure carries the spec's chunk text, not why).
 */
export function verdict(error: unknown, last: Failure | null): Verdict {
  if (error instanceof NetworkError)
    return { kind: 'wait', failure: { reason: 'unreachable', message: error.message } };
  if (!(error instanceof UploadError)) return { kind: 'local' };
  if (error.status === 401 || error.status === 403)
    return {
      kind: 'auth',
      error: { code: 'auth', message: error.status === 401 ? SESSION_EXPIRED : error.message },
    };
  if (error.status === 0) {
    if (['network', 'part_failed', 'timeout', 'stalled'].includes(error.code))
      return {
        kind: 'wait',
        failure: last ?? {
          reason: 'unreachable',
          message: error.code === 'network' ? error.message : 'No answer from the server.',
        },
      };
    return { kind: 'local' };
  }
  if (isRetryableAnswer(error.status, error.code))
    return {
      kind: 'wait',
      failure:
        last?.reason === 'server-error'
          ? last
          : { reason: 'server-error', message: serverErrorWords(error.status, error.message) },
    };
  return { kind: 'server', error: { code: 'server', message: error.message } };
}

export function serverErrorWords(status: number, message: string): string {
  const generic = /^The server answered \d+\.$/.test(message);
  return generic
    ? `The server answered ${status} (it is failing or busy).`
    : `The server answered ${status}: ${message}`;
}
