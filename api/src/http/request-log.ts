import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger.js';
import { requestId } from './request-id.js';

// Express rewrites req.url inside mounted routers; originalUrl is what the client asked for.
const pathOf = (req: IncomingMessage) =>
  ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '').split('?')[0];

/**
 * One log line per request, and a `req.log` whose every line carries `reqId`. Health probes from load
 * balancers arrive every few seconds, so a healthy answer is logged at debug only.
 */
export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: requestId,
    quietReqLogger: true,
    customLogLevel(req: IncomingMessage, res: ServerResponse, error?: Error) {
      if (error || res.statusCode >= 500) return 'error';
      if (res.statusCode >= 400) return 'warn';
      if (pathOf(req) === '/api/health') return 'debug';
      return 'info';
    },
    serializers: {
      // The response headers are the same security headers every time; the status is what matters.
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
