import { QueryTypes } from 'sequelize';
import type { Database } from '../../db/index.js';
import { GroupedStatements, groupedPer } from '../../db/grouped-statements.js';
import { COMPLETION } from './claims.js';

/**
 * SQLite's records of files completed with their only part (a folder of small files, #34), a group to a
 * statement. On SQLite a completion is two writes, the part and the file, each waiting for the one
 * writer's turn; with a thousand 1 MiB files arriving in bundles the turn was held 90% of the time (2,000
 * writes in 2.8 s, 1.2 ms each), the writes of four bundles queued 8-9 ms each, and the uploads went at
 * the pace of the turn. Those that queue while a group is written go together in the next one
 * (grouped-statements.ts). PostgreSQL records each in one statement of its own (completion.ts).
 */
export interface OnlyPartRecord {
  fileId: string;
  /** The completion claim's token: each statement tests that the claim is still this completion's. */
  token: string;
  sha256: string;
  /** As SQLite stores dates (db/bind.ts dateParam). */
  now: string;
  size: number;
  etag: string | null;
}

/** Whether each file was recorded complete (false: its claim is no longer this completion's). */
export function recordOnlyPartComplete(db: Database, record: OnlyPartRecord): Promise<boolean> {
  return groupsOf(db).run(record);
}

const groupsOf = groupedPer(
  (db: Database) =>
    new GroupedStatements<OnlyPartRecord, boolean>({
      many: (records) => recordMany(db, records),
      one: async (record) => (await recordMany(db, [record]))[0]!,
    }),
);

/**
 * The parts, then the files, of `records`, each only while its claim is held. The first statement writes
 * all of its rows or none; when the second fails, each file whose part went in is recorded alone, so a
 * failure leaves what one completion's own two statements would have left.
 */
async function recordMany(db: Database, records: OnlyPartRecord[]): Promise<boolean[]> {
  const { items, replacements } = itemsOf(records, ['size', 'etag']);
  const stored = await db.sequelize.query<{ file_id: string }>(
    `${items} INSERT INTO file_parts (file_id, part_number, size, etag, write_id, created_at)
     SELECT i.file_id, 1, i.size, i.etag, i.token, i.now FROM items i
     WHERE EXISTS (SELECT 1 FROM upload_claims c WHERE c.file_id = i.file_id
       AND c.part_number = ${COMPLETION} AND c.token = i.token)
     RETURNING file_id`,
    { replacements, type: QueryTypes.SELECT },
  );
  const withPart = new Set(stored.map((row) => row.file_id));
  const files = records.filter((r) => withPart.has(r.fileId));
  let recorded: Set<string>;
  try {
    recorded = await recordFiles(db, files);
  } catch (error) {
    if (records.length === 1) throw error;
    // Each alone; one that fails again is answered as not recorded (its completion tried again later
    // finds its part stored), never as a failure of the whole group, some of which may be recorded.
    recorded = new Set();
    for (const file of files) {
      const alone = await recordFiles(db, [file]).catch(() => new Set<string>());
      if (alone.size > 0) recorded.add(file.fileId);
    }
  }
  return records.map((r) => recorded.has(r.fileId));
}

async function recordFiles(db: Database, records: OnlyPartRecord[]): Promise<Set<string>> {
  if (records.length === 0) return new Set();
  const { items, replacements } = itemsOf(records, []);
  const own = (column: string) => `(SELECT i.${column} FROM items i WHERE i.file_id = submission_files.id)`;
  const recorded = await db.sequelize.query<{ id: string }>(
    `${items}
     UPDATE submission_files SET status = 'complete', sha256 = ${own('sha256')}, completed_at = ${own('now')},
       storage_upload_id = NULL, updated_at = ${own('now')}
     WHERE id IN (SELECT file_id FROM items) AND EXISTS (SELECT 1 FROM items i JOIN upload_claims c
       ON c.file_id = i.file_id AND c.part_number = ${COMPLETION} AND c.token = i.token
       WHERE i.file_id = submission_files.id)
     RETURNING id`,
    { replacements, type: QueryTypes.SELECT },
  );
  return new Set(recorded.map((row) => row.id));
}

/** `WITH items (file_id, token, sha256, now, …more) AS (VALUES …)` over `records`, and its replacements. */
function itemsOf(
  records: OnlyPartRecord[],
  more: ('size' | 'etag')[],
): { items: string; replacements: Record<string, unknown> } {
  const columns = ['fileId', 'token', 'sha256', 'now', ...more] as const;
  const replacements: Record<string, unknown> = {};
  const rows = records.map((record, i) => {
    const names = columns.map((column, c) => {
      replacements[`v${i}_${c}`] = record[column];
      return `:v${i}_${c}`;
    });
    return `(${names.join(', ')})`;
  });
  const names = ['file_id', 'token', 'sha256', 'now', ...more];
  return { items: `WITH items (${names.join(', ')}) AS (VALUES ${rows.join(', ')})`, replacements };
}
