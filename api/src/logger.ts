import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/**
 * JSON lines on stdout (or the given stream). Session cookies and credentials never reach the log:
 * request headers that carry them are censored wherever pino-http serialises a request or response.
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: DestinationStream): Logger {
  const options = {
    level: config.LOG_LEVEL,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["stripe-signature"]',
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
