import { parseArgs } from 'node:util';
import { formatBytes } from '@avp/shared';
import { createUploadStorage, localUploadsDir } from '../adapters/storage/index.js';
import { EXIT, runCli, UsageError } from './context.js';
import { reconcileUploads, removeOrphans } from './uploads-reconcile.js';

const USAGE = `Usage: npm run uploads:check [-- --remove-orphans]

Compares upload storage (DATA_DIR/uploads, or the S3 bucket) with the database and lists
  files without rows: bytes no submission refers to (e.g. stored after the database backup was taken);
  rows without files: completed uploads whose bytes are missing (e.g. storage restored from an older copy);
  files whose size differs from their row.
Nothing is deleted unless --remove-orphans is given: then the files without rows are listed, then deleted.
Exit code 0 when storage and database agree (or only files without rows were found and removed), 1 otherwise.`;

function parse(argv: string[]): { removeOrphans: boolean } {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { 'remove-orphans': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) throw new UsageError([]);
    if (positionals.length > 0) throw new UsageError([`Unexpected argument: ${positionals.join(' ')}`]);
    return { removeOrphans: values['remove-orphans'] === true };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError([error instanceof Error ? error.message : String(error)]);
  }
}

const options = parse(process.argv.slice(2));

await runCli(
  USAGE,
  async ({ config, db }) => {
    const storage = createUploadStorage(config);
    const where = storage.kind === 'local' ? localUploadsDir(config) : `s3://${config.S3_BUCKET}`;
    const found = await reconcileUploads(db, storage);
    const out = (line: string) => process.stdout.write(`${line}\n`);
    out(`Checked ${found.storedCount} stored file(s) in ${where} against ${found.rowCount} file row(s).`);

    out(`Files without rows: ${found.orphans.length}`);
    for (const file of found.orphans) out(`  ${file.key} (${formatBytes(file.size)})`);
    out(`Rows without files: ${found.missing.length}`);
    for (const row of found.missing) {
      out(
        `  file ${row.id} "${row.name}" (${formatBytes(row.size)}) of submission ${row.submissionId}: ${row.storageKey}`,
      );
    }
    out(`Files whose size differs from their row: ${found.wrongSize.length}`);
    for (const { row, stored } of found.wrongSize) {
      out(
        `  ${row.storageKey}: ${stored} bytes stored, ${row.size} in its row (file ${row.id} "${row.name}")`,
      );
    }

    let orphansLeft = found.orphans.length;
    if (found.orphans.length > 0) {
      if (options.removeOrphans) {
        const removed = await removeOrphans(db, storage, found.orphans);
        orphansLeft -= removed;
        out(`Removed ${removed} file(s) without rows.`);
      } else {
        out('Nothing was deleted: run again with --remove-orphans to delete the files without rows.');
      }
    }
    if (found.missing.length > 0) {
      out(
        'Rows without files: copy those keys back from a storage backup (or an earlier S3 object version); ' +
          'until then their downloads fail.',
      );
    }
    const clean = orphansLeft === 0 && found.missing.length === 0 && found.wrongSize.length === 0;
    if (clean && found.orphans.length === 0) out('Storage and database agree.');
    process.exitCode = clean ? EXIT.ok : EXIT.failure;
  },
  { migrate: false },
);
