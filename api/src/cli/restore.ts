import { fileAndFlags } from './backup-args.js';
import { restoreBackup } from './restore-backup.js';
import { runTool } from './tool.js';

const USAGE = `Usage: npm run db:restore -- FILE [--force]

Puts a backup made by npm run db:backup back, with the server stopped.
  SQLite: into DATA_DIR/app.db. Refused while any process has the database open, and when it holds data
  unless --force (the replaced database is kept beside it as app.db.before-restore-<time>).
  PostgreSQL: pg_restore into DATABASE_URL, under the schema the backup was made from (DB_SCHEMA must name
  it). Refused when that schema has tables unless --force, which drops them first.
A backup from a newer version of the application (a migration this code does not know) is refused; one
from an older version is migrated when the server starts.`;

await runTool(USAGE, async (config) => {
  const { file, flags } = fileAndFlags(process.argv.slice(2), ['force'] as const);
  for (const line of await restoreBackup(config, file, flags)) process.stdout.write(`${line}\n`);
});
