import { parseArgs } from 'node:util';
import { upsertStaffAccount, staffAccountInput } from '../modules/accounts/staff-accounts.js';
import { EXIT, runCli, UsageError } from './context.js';

const USAGE = `Usage: npm run admin -- create --email E --password P --first F --last L

Creates a staff account, or updates the account with that e-mail: makes it staff and sets the name and
password. The password must be at least 8 characters.`;

const FLAG_OF = {
  email: '--email',
  password: '--password',
  firstName: '--first',
  lastName: '--last',
} as const;

/** Reads and validates the arguments before the database is touched; bad input is a UsageError. */
function parseCommand(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        first: { type: 'string' },
        last: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError([error instanceof Error ? error.message : String(error)]);
  }
  const { values, positionals } = parsed;
  if (values.help) throw new UsageError([]);
  const [command, ...extra] = positionals;
  if (command !== 'create') {
    throw new UsageError([command === undefined ? 'Missing command: create' : `Unknown command: ${command}`]);
  }
  if (extra.length > 0) throw new UsageError([`Unexpected argument: ${extra.join(' ')}`]);

  const input = {
    email: values.email,
    password: values.password,
    firstName: values.first,
    lastName: values.last,
  };
  const result = staffAccountInput.safeParse(input);
  if (!result.success) {
    const lines = new Map<string, string>();
    for (const issue of result.error.issues) {
      const flag = FLAG_OF[issue.path[0] as keyof typeof FLAG_OF];
      if (!lines.has(flag)) lines.set(flag, `${flag}: ${issue.message}`);
    }
    throw new UsageError([...lines.values()]);
  }
  return result.data;
}

const argv = process.argv.slice(2);
let input: ReturnType<typeof parseCommand> | undefined;
try {
  input = parseCommand(argv);
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  if (error.lines.length === 0) {
    process.stdout.write(`${USAGE}\n`);
  } else {
    process.stderr.write(`${error.lines.join('\n')}\n\n${USAGE}\n`);
    process.exitCode = EXIT.usage;
  }
}

if (input !== undefined) {
  const account = input;
  await runCli(USAGE, async ({ db }) => {
    const { user, created } = await upsertStaffAccount(db, account);
    process.stdout.write(`${created ? 'Created' : 'Updated'} staff account ${user.email} (id ${user.id}).\n`);
  });
}
