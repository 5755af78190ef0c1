import { ConfigError, loadConfig } from './config.js';
import type { Config } from './config.js';
import { createServerLogger } from './logger.js';
import { startServer } from './start.js';

/**
 * The process entry point (`node api/dist/server.js`): configuration, start-up, and a graceful stop on
 * SIGTERM/SIGINT. Everything else lives in start.ts so that tests can start the same server on port 0.
 */

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  for (const line of error.lines) process.stderr.write(`Configuration error: ${line}\n`);
  process.exit(1);
}

const logger = createServerLogger(config);

try {
  const running = await startServer(config, { logger });
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    running.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (error) {
  logger.fatal({ err: error }, 'start-up failed');
  process.exitCode = 1;
}
