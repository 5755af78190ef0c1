/**
 * av-upload: the upload engine from a terminal. Parses the command line and hands it to the command
 * (commands/*.ts); options.ts holds the flags and the usage text, errors.ts the exit codes. Progress is a
 * line redrawn on a terminal, JSON lines otherwise (or with --json).
 */
import { parseArgs } from 'node:util';
import { accounts } from './commands/accounts.js';
import type { Command } from './commands/command.js';
import { login } from './commands/login.js';
import { logout } from './commands/logout.js';
import { resume } from './commands/resume.js';
import { pull } from './commands/pull.js';
import { status } from './commands/status.js';
import { upload } from './commands/upload.js';
import { watch } from './commands/watch.js';
import { homeDir } from './config.js';
import { CliError, EXIT, unexpected } from './errors.js';
import { handleSignals } from './interrupt.js';
import { io } from './io.js';
import { OPTIONS, refusedOption, USAGE } from './options.js';
import { settings } from './commands/settings.js';

const COMMANDS = new Map<string, Command>([
  ['login', login],
  ['logout', logout],
  ['upload', upload],
  ['resume', resume],
  ['status', status],
  ['settings', settings],
  ['watch', watch],
  ['accounts', accounts],
  ['pull', pull],
]);

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  const [name, ...args] = positionals;
  const o = io(Boolean(values.json) || !process.stdout.isTTY);
  if (values.help || !name) {
    (name || values.help ? o.out : o.err)(USAGE);
    return values.help ? EXIT.ok : EXIT.usage;
  }
  const home = homeDir();
  handleSignals();
  const command = COMMANDS.get(name);
  if (!command) {
    o.err(`Unknown command: ${name}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const refused = refusedOption(name === 'watch' ? `watch ${args[0] ?? 'run'}` : name, Object.keys(values));
  if (refused) {
    if (o.json) o.event({ event: 'error', exitCode: EXIT.usage, message: refused });
    else o.err(refused);
    return EXIT.usage;
  }
  try {
    return await command({ values, args, home, o });
  } catch (error) {
    if (error instanceof CliError) {
      if (o.json) o.event({ event: 'error', exitCode: error.exitCode, message: error.message });
      else o.err(error.message);
      return error.exitCode;
    }
    const message = unexpected(error);
    if (o.json) o.event({ event: 'error', exitCode: EXIT.error, message });
    else o.err(message);
    return EXIT.error;
  }
}

const exitCode = await main(process.argv.slice(2));
process.exitCode = exitCode;
