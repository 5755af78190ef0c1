import { ConfigError, loadConfig } from '../config.js';
import type { Config } from '../config.js';
import { migrateUp, openDatabase } from '../db/index.js';
import type { Database } from '../db/index.js';
import { createLogger } from '../logger.js';
import type { Logger } from '../logger.js';
import { pino } from 'pino';

export interface CliContext {
  config: Config;
  db: Database;
  logger: Logger;
}

/** Exit codes shared by the CLIs. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

export class UsageError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
    this.name = 'UsageError';
  }
}

/**
 * Runs a command with the configuration and an open database, migrated first unless the command is the
 * migration tool itself, then closes it. Standard output is left to the command's own result line: logs go
 * to standard error, and only warnings unless LOG_LEVEL asks for more.
 */
export async function runCli(
  usage: string,
  command: (context: CliContext) => Promise<void>,
  options: { migrate?: boolean } = {},
): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const line of error.lines) process.stderr.write(`Configuration error: ${line}\n`);
    process.exitCode = EXIT.failure;
    return;
  }
  const level = process.env.LOG_LEVEL ? config.LOG_LEVEL : 'warn';
  const logger = createLogger({ LOG_LEVEL: level }, pino.destination(2));

  let db: Database | undefined;
  try {
    db = await openDatabase(config, logger);
    if (options.migrate !== false) await migrateUp(db, logger);
    await command({ config, db, logger });
    process.exitCode ??= EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      for (const line of error.lines) process.stderr.write(`${line}\n`);
      process.stderr.write(`\n${usage}\n`);
      process.exitCode = EXIT.usage;
    } else {
      process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
      logger.debug({ err: error }, 'command failed');
      process.exitCode = EXIT.failure;
    }
  } finally {
    await db?.close();
  }
}
