import type { RequestHandler } from 'express';

/** Raised on a request whose body stopped arriving. */
export class IdleBodyError extends Error {
  readonly code = 'body_idle';
  constructor(readonly seconds: number) {
    super(`The request body sent nothing for ${seconds} s and was ended.`);
    this.name = 'IdleBodyError';
  }
}

/**
 * Ends a request whose body sends nothing for `seconds` (a laptop that slept, a venue link that went
 * dark): without it the handler reading the body waits for ever, and so does whatever it holds (a part's
 * write claim, which would refuse the same part when the client comes back). The request is destroyed
 * with IdleBodyError, so the handler's stream fails as if the client had gone, and no answer is sent
 * (there is nobody listening).
 *
 * The socket's own idle timer does the counting (libuv resets it on every read; nothing is done per
 * chunk here); it is cleared once the body has ended, so a slow answer after it is not cut.
 */
export function endIdleBody(seconds: number): RequestHandler {
  const ms = seconds * 1000;
  return (req, _res, next) => {
    if (req.complete) {
      next();
      return;
    }
    const socket = req.socket;
    const onTimeout = () => {
      if (req.complete) return;
      req.log.warn({ idleSeconds: seconds }, 'request body idle: the request was ended');
      req.destroy(new IdleBodyError(seconds));
    };
    req.setTimeout(ms, onTimeout);
    req.once('end', () => {
      req.off('timeout', onTimeout);
      socket.setTimeout(0);
    });
    next();
  };
}
