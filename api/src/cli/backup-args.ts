import { parseArgs } from 'node:util';
import path from 'node:path';
import { UsageError } from './context.js';

/**
 * One FILE and the command's flags. A relative FILE is taken from where the operator typed the command
 * (npm runs scripts from the repository root and says where it was started in INIT_CWD).
 */
export function fileAndFlags<const F extends string>(
  argv: string[],
  flags: readonly F[],
): { file: string; flags: Record<F, boolean> } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(flags.map((flag) => [flag, { type: 'boolean' as const }])),
      },
    });
  } catch (error) {
    throw new UsageError([error instanceof Error ? error.message : String(error)]);
  }
  const { values, positionals } = parsed;
  if (values.help) throw new UsageError([]);
  if (positionals.length === 0) throw new UsageError(['Missing FILE']);
  if (positionals.length > 1)
    throw new UsageError([`Unexpected argument: ${positionals.slice(1).join(' ')}`]);
  const base = process.env.INIT_CWD ?? process.cwd();
  const chosen = Object.fromEntries(
    flags.map((flag) => [flag, (values as Record<string, unknown>)[flag] === true]),
  ) as Record<F, boolean>;
  return { file: path.resolve(base, positionals[0]!), flags: chosen };
}
