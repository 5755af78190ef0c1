import { open } from 'node:fs/promises';
import { MIGRATIONS } from '../db/migrations/index.js';

/** What a backup file is, by its first bytes: SQLite's header, or pg_dump's custom format. */
export type BackupKind = 'sqlite' | 'postgres';

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const PGDUMP_MAGIC = Buffer.from('PGDMP', 'latin1');

export async function backupKind(file: string): Promise<BackupKind | undefined> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await handle.read(head, 0, 16, 0);
    if (bytesRead >= 16 && head.equals(SQLITE_MAGIC)) return 'sqlite';
    if (bytesRead >= 5 && head.subarray(0, 5).equals(PGDUMP_MAGIC)) return 'postgres';
    return undefined;
  } finally {
    await handle.close();
  }
}

export class NewerSchemaError extends Error {
  constructor(readonly unknown: string[]) {
    super(
      `This backup comes from a newer version of the application: its database has migration(s) this code ` +
        `does not know (${unknown.join(', ')}). Restore it with that version or a later one.`,
    );
    this.name = 'NewerSchemaError';
  }
}

/**
 * Compares the migrations a backup records with the code's list: one the code does not know means a
 * schema it cannot run on (refused); ones missing are applied when the server next starts.
 */
export function compareSchema(recorded: string[]): { pending: string[] } {
  const known = new Set(MIGRATIONS.map((migration) => migration.name));
  const unknown = recorded.filter((name) => !known.has(name));
  if (unknown.length > 0) throw new NewerSchemaError(unknown);
  if (recorded.length === 0) {
    throw new Error('This file has no record of its migrations: it is not a backup of this application.');
  }
  const have = new Set(recorded);
  return { pending: MIGRATIONS.map((migration) => migration.name).filter((name) => !have.has(name)) };
}
