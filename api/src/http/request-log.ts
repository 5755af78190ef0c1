import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger.js';
import { requestId } from './request-id.js';

// Express rewrites req.url inside mounted routers; originalUrl is what the client asked for.
const pathOf = (req: IncomingMessage) =>
  ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '').split('?')[0] ?? '';

const UPLOAD_PART = /^\/api\/uploads\/files\/[^/]+\/parts\/[^/]+$/;

/**
 * One log line per request, and a `req.log` whose every line carries `reqId`. Health probes from load
 * balancers arrive every few seconds, and an upload sends a part every 6 MiB (171 to a gigabyte), so
 * their healthy answers are logged at debug only: the upload's info line is its completion request's.
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
      if (pathOf(req) === '/api/health') return 'debug';
      if (req.method === 'PUT' && UPLOAD_PART.test(pathOf(req))) return 'debug';
      return 'info';
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
