import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger.js';
import { requestId } from './request-id.js';
import { routePattern } from './route-pattern.js';

// Express rewrites req.url inside mounted routers; originalUrl is what the client asked for.
const pathOf = (req: IncomingMessage) =>
  ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '').split('?')[0] ?? '';

const UPLOAD_PART = /^\/api\/uploads\/files\/[^/]+\/parts\/[^/]+$/;

/** What the error handler knows of a 5xx: its code, the reason in words for staff, and the cause. */
export interface ServerError {
  code: string;
  reason: string;
  cause: unknown;
}

const serverErrors = new WeakMap<ServerResponse, ServerError>();

/**
 * Hands a 5xx's details to the request's one log line (written when the answer is sent), instead of a
 * line of its own: an operator finds everything about the failure by the request id the client shows.
 */
export function noteServerError(res: ServerResponse, error: ServerError): void {
  serverErrors.set(res, error);
  res.err = error.cause instanceof Error ? error.cause : new Error(String(error.cause));
}

/** "TypeError: message" of a cause, on one line, for grep. */
function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}`.split('\n')[0] ?? '';
}

/**
 * One log line per request, and a `req.log` whose every line carries `reqId`. Health probes from load
 * balancers arrive every few seconds (and Prometheus scrapes /metrics as often), and an upload sends a part
 * every 6 MiB (171 to a gigabyte), so their healthy answers are logged at debug only: the upload's info
 * line is its completion request's.
 */
export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: requestId,
    quietReqLogger: true,
    customLogLevel(req: IncomingMessage, res: ServerResponse, error?: Error) {
      if (error || res.statusCode >= 500) return 'error';
      // A missing page is the visitor's business, not the operator's; refused API calls are worth a look.
      if (res.statusCode === 404 && !pathOf(req).startsWith('/api/')) return 'info';
      if (res.statusCode >= 400) return 'warn';
      if (pathOf(req) === '/api/health' || pathOf(req) === '/metrics') return 'debug';
      if (req.method === 'PUT' && UPLOAD_PART.test(pathOf(req))) return 'debug';
      return 'info';
    },
    // Every line names the route pattern; a 5xx's also its code and cause (and the request id, as all do).
    customSuccessObject: (req: IncomingMessage, _res: ServerResponse, value: Record<string, unknown>) => ({
      ...value,
      route: routePattern(req),
    }),
    customErrorObject(
      req: IncomingMessage,
      res: ServerResponse,
      error: Error,
      value: Record<string, unknown>,
    ) {
      const noted = serverErrors.get(res);
      return {
        ...value,
        route: routePattern(req),
        code: noted?.code ?? `http_${res.statusCode}`,
        cause: describeCause(noted?.cause ?? error),
      };
    },
    customErrorMessage(_req: IncomingMessage, res: ServerResponse, error: Error) {
      return serverErrors.get(res)?.reason ?? `request failed: ${error.message}`;
    },
    serializers: {
      // Headers carry little beyond the user agent, and cookies and tokens must never reach the logs.
      req: (req: {
        id: unknown;
        method: string;
        url: string;
        headers: Record<string, unknown>;
        remoteAddress?: string;
      }) => ({
        id: req.id,
        method: req.method,
        url: req.url,
        userAgent: req.headers['user-agent'],
        remoteAddress: req.remoteAddress,
      }),
      // The response headers are the same security headers every time; the status is what matters.
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
