import { ConfigError, loadConfig } from '../config.js';
import type { Config } from '../config.js';
import { EXIT, UsageError } from './context.js';

const UNUSED_SECRET = 'not-used-by-backup-and-restore-commands';

/**
 * Runs an operator's command that manages its own connections (backup, restore): the configuration is
 * loaded and validated, but no database is opened or migrated for it. A failure is one 'Error:' line on
 * standard error and exit code 1; bad arguments print the usage and exit 2.
 */
export async function runTool(usage: string, command: (config: Config) => Promise<void>): Promise<void> {
  try {
    // These commands never sign anything, and loading the configuration must not generate a secret
    // into DATA_DIR (a restore's fresh folder would get one that differs from the backed-up server's).
    const config = loadConfig({
      ...process.env,
      SESSION_SECRET: process.env.SESSION_SECRET || UNUSED_SECRET,
    });
    await command(config);
    process.exitCode ??= EXIT.ok;
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const line of error.lines) process.stderr.write(`Configuration error: ${line}\n`);
      process.exitCode = EXIT.failure;
    } else if (error instanceof UsageError) {
      for (const line of error.lines) process.stderr.write(`${line}\n`);
      process.stderr.write(`\n${usage}\n`);
      process.exitCode = EXIT.usage;
    } else {
      process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = EXIT.failure;
    }
  }
}
