import { createRequire } from 'node:module';
import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import type { PrettyOptions } from 'pino-pretty';
import type { Config } from './config.js';

export type { Logger };

export type LogFormat = 'json' | 'pretty';

/**
 * Readable lines for a person at a terminal, JSON lines for everything else (a file, a pipe, a process
 * manager, a container). `npm run dev` runs the server under concurrently, which pipes its output but
 * sets FORCE_COLOR when its own output is a terminal, so that counts as a terminal too.
 */
export function chooseLogFormat(
  setting: Config['LOG_FORMAT'],
  stdout: { isTTY?: boolean },
  env: Record<string, string | undefined>,
): LogFormat {
  if (setting !== 'auto') return setting;
  if (stdout.isTTY) return 'pretty';
  const force = env.FORCE_COLOR;
  return force !== undefined && force !== '0' && force !== 'false' ? 'pretty' : 'json';
}

const require = createRequire(import.meta.url);

/** One line per entry: a request's line says what was asked and answered rather than nesting objects. */
function prettyStream(): DestinationStream {
  // Loaded only for a terminal, so a server writing JSON never pays for it.
  const pretty = require('pino-pretty') as (options: PrettyOptions) => DestinationStream;
  return pretty({
    colorize: true,
    // Synchronous: the last lines before process.exit() (shutdown, a start-up failure) must not be lost.
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    // The route pattern repeats the URL shown at the start of a request's line.
    ignore: 'pid,hostname,req,res,responseTime,reqId,route',
    singleLine: true,
    messageFormat: (log, messageKey) => {
      const message = String(log[messageKey] ?? '');
      const req = log.req as { method?: string; url?: string } | undefined;
      const res = log.res as { statusCode?: number } | undefined;
      if (!req?.method) return message;
      const time = typeof log.responseTime === 'number' ? ` ${log.responseTime} ms` : '';
      return `${req.method} ${req.url ?? ''} ${res?.statusCode ?? ''}${time} ${message}`.trim();
    },
  });
}

/**
 * Values in logged SQL that open something without a password: a link a client picked (a Dropbox
 * direct link works for anyone holding it for 4 hours), and whatever a column of tokens, secrets or
 * links holds. Sequelize inlines a WHERE clause's values and the raw queries' replacements into the SQL
 * it logs at debug level; a column's literal after `=`, and any quoted URL, become '[redacted]'.
 */
const SECRET_COLUMN =
  /("?\b\w*(?:_link|token|secret|password\w*)"?\s*(?:=|!=|<>|IN\s*\()\s*)'(?:[^']|'')*'/gi;
const URL_LITERAL = /'(?:https?|ftp):\/\/(?:[^']|'')*'/gi;

export function redactSql(sql: string): string {
  return sql.replace(SECRET_COLUMN, "$1'[redacted]'").replace(URL_LITERAL, "'[redacted]'");
}

function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>) {
  return {
    level: config.LOG_LEVEL,
    formatters: {
      log(object: Record<string, unknown>) {
        return typeof object.sql === 'string' ? { ...object, sql: redactSql(object.sql) } : object;
      },
    },
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
}

/**
 * JSON lines on stdout (or the given stream). Session cookies and credentials never reach the log:
 * request headers that carry them are censored wherever pino-http serialises a request or response,
 * and picked links and tokens in the SQL of debug lines (redactSql).
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: DestinationStream): Logger {
  const options = loggerOptions(config);
  return destination ? pino(options, destination) : pino(options);
}

/** The server process's logger on stdout, in the format chooseLogFormat picks for it. */
export function createServerLogger(config: Pick<Config, 'LOG_LEVEL' | 'LOG_FORMAT'>): Logger {
  const format = chooseLogFormat(config.LOG_FORMAT, process.stdout, process.env);
  return format === 'pretty' ? pino(loggerOptions(config), prettyStream()) : createLogger(config);
}
