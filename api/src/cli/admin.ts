import password from '@inquirer/password';
import { parseArgs } from 'node:util';
import { upsertStaffAccount, staffAccountInput } from '../modules/accounts/staff-accounts.js';
import { EXIT, runCli, UsageError } from './context.js';

const USAGE = `Usage: npm run admin -- create --email E --first F --last L

Creates a staff account, or updates the account with that e-mail: makes it staff and sets the name and
password. An account without a staff role becomes an owner (the first owner comes from here; owners invite
everyone else from the staff pages); one with roles keeps them. The password (at least 8 characters) is asked for on a terminal, without showing it; in a script,
pipe it in on standard input:  printf '%s' "$PASSWORD" | npm run admin -- create --email E --first F --last L
(--password P still works but is discouraged: the command line is visible to other users and kept in the
shell's history).`;

const FLAG_OF = {
  email: '--email',
  password: '--password',
  firstName: '--first',
  lastName: '--last',
} as const;

/** The arguments, minus the password, checked before the database is touched; bad input is a UsageError. */
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
  // A password still to be asked for is not reported missing: the other fields are checked first, so
  // nobody types a password for a command that then fails on its e-mail.
  check(values.password === undefined ? { ...input, password: 'x'.repeat(64) } : input, '--password');
  return input;
}

function check(input: Record<string, unknown>, passwordLabel: string) {
  const result = staffAccountInput.safeParse(input);
  if (result.success) return result.data;
  const lines = new Map<string, string>();
  for (const issue of result.error.issues) {
    const key = issue.path[0] as keyof typeof FLAG_OF;
    const flag = key === 'password' ? passwordLabel : FLAG_OF[key];
    if (!lines.has(flag)) lines.set(flag, `${flag}: ${issue.message}`);
  }
  throw new UsageError([...lines.values()]);
}

/**
 * The password when --password was not given: asked for twice on a terminal (nothing echoed, on stderr so
 * stdout stays the result line), else read from standard input (one trailing line end dropped).
 */
async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += String(chunk);
    const piped = text.replace(/\r?\n$/, '');
    if (piped === '')
      throw new UsageError([
        'No password: type it when asked (run the command in a terminal), or pipe it in on standard input.',
      ]);
    return piped;
  }
  const ask = (message: string) =>
    password({ message }, { output: process.stderr }).catch((error: unknown) => {
      // Ctrl-C at the prompt: the terminal is in raw mode, so it reaches the prompt rather than the process.
      if (error instanceof Error && error.name === 'ExitPromptError') throw new Cancelled();
      throw error;
    });
  const first = await ask('Password for the staff account:');
  const again = await ask('The same password again:');
  if (first !== again) throw new UsageError(['The two passwords differ: nothing was changed.']);
  return first;
}

class Cancelled extends Error {}

const argv = process.argv.slice(2);
let input: ReturnType<typeof check> | undefined;
try {
  const given = parseCommand(argv);
  input =
    given.password === undefined
      ? check({ ...given, password: await readPassword() }, 'Password')
      : check(given, '--password');
} catch (error) {
  if (error instanceof Cancelled) {
    process.stderr.write('Cancelled: nothing was changed.\n');
    process.exitCode = 130;
  } else if (!(error instanceof UsageError)) {
    throw error;
  } else if (error.lines.length === 0) {
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
