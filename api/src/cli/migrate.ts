import { migrateDown, migrateUp, pendingMigrations } from '../db/index.js';
import { runCli, UsageError } from './context.js';

const USAGE = `Usage: npm run db:migrate [-- up | down | status]

  up      apply every pending migration (the default)
  down    revert the last applied migration
  status  list the migrations not yet applied`;

const [command = 'up', ...extra] = process.argv.slice(2);

await runCli(
  USAGE,
  async ({ db, logger }) => {
    if (extra.length > 0) throw new UsageError([`Unexpected argument: ${extra.join(' ')}`]);
    switch (command) {
      case 'up': {
        const applied = await migrateUp(db, logger);
        process.stdout.write(
          applied.length > 0
            ? `Applied: ${applied.join(', ')}\n`
            : 'Nothing to apply: the database is up to date.\n',
        );
        return;
      }
      case 'down': {
        const reverted = await migrateDown(db, undefined, logger);
        process.stdout.write(
          reverted.length > 0 ? `Reverted: ${reverted.join(', ')}\n` : 'Nothing to revert.\n',
        );
        return;
      }
      case 'status': {
        const pending = await pendingMigrations(db);
        process.stdout.write(pending.length > 0 ? `Pending: ${pending.join(', ')}\n` : 'Up to date.\n');
        return;
      }
      default:
        throw new UsageError([`Unknown command: ${command}`]);
    }
  },
  { migrate: false },
);
