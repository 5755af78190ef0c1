import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-Id';

// An id from a proxy or client is kept only when it cannot smuggle anything into logs or headers.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Chooses the request's id (the caller's X-Request-Id when it is a short safe token, else a fresh UUID)
 * and echoes it in the response so a user's report can be matched to the log lines.
 */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
