import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type * as S3Sdk from '@aws-sdk/client-s3';
import { LocalStorage, S3Storage } from '../adapters/storage/index.js';
import type { UploadStorage } from '../adapters/storage/index.js';
import type { Database } from '../db/index.js';

/**
 * Upload storage against the database (issue 35 item 3), for after a restore or a storage incident:
 * files without a row (bytes nobody can reach, e.g. uploaded after the database backup was taken) and
 * rows without a file (a completed upload whose bytes are gone, e.g. storage restored from an older
 * copy). Only finished files are owed bytes everywhere: an unfinished S3 upload has parts, not an object.
 *
 * The server keeps running meanwhile, so the order matters: storage is listed before the rows (a file's
 * row is always written before its bytes, so every listed file's row is already there), and each finding
 * is looked at again before it is reported, for a file completed or deleted between the two listings.
 */

export interface StoredFile {
  key: string;
  size: number;
}

export interface FileRow {
  id: string;
  submissionId: string;
  name: string;
  size: number;
  status: 'uploading' | 'complete';
  storageKey: string;
}

export interface Reconciliation {
  storedCount: number;
  rowCount: number;
  /** Files in storage that no row names. */
  orphans: StoredFile[];
  /** Completed files whose bytes are not in storage. */
  missing: FileRow[];
  /** Completed files stored at another size than their row says. */
  wrongSize: { row: FileRow; stored: number }[];
}

// Keys are made by the uploads module only: 'submissions/<submission id>/<file id>'.
const KEY = /^submissions\/[a-z0-9-]+\/[a-z0-9-]+$/;

/** Every file under the local driver's folder that has the shape of an upload's key. */
async function listLocal(storage: LocalStorage): Promise<StoredFile[]> {
  const base = path.join(storage.root, 'submissions');
  const found: StoredFile[] = [];
  let submissions: string[];
  try {
    submissions = await readdir(base);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  for (const submission of submissions) {
    let files: string[];
    try {
      files = await readdir(path.join(base, submission));
    } catch (error) {
      // A file where a folder should be, or a folder removed meanwhile: not an upload's place.
      if (['ENOTDIR', 'ENOENT'].includes((error as NodeJS.ErrnoException).code ?? '')) continue;
      throw error;
    }
    for (const file of files) {
      const key = `submissions/${submission}/${file}`;
      if (!KEY.test(key)) continue;
      try {
        const info = await stat(path.join(base, submission, file));
        if (info.isFile()) found.push({ key, size: info.size });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
  return found;
}

/** Every object under submissions/ in the bucket, a page (1,000 keys) at a time: ListObjectsV2. */
async function listS3(storage: S3Storage): Promise<StoredFile[]> {
  const sdk: typeof S3Sdk = await import('@aws-sdk/client-s3');
  const found: StoredFile[] = [];
  let token: string | undefined;
  do {
    const page = await storage.client.send(
      new sdk.ListObjectsV2Command({
        Bucket: storage.bucket,
        Prefix: 'submissions/',
        ContinuationToken: token,
      }),
    );
    for (const object of page.Contents ?? []) {
      if (object.Key !== undefined && KEY.test(object.Key)) {
        found.push({ key: object.Key, size: object.Size ?? 0 });
      }
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
  return found;
}

export function listStored(storage: UploadStorage): Promise<StoredFile[]> {
  if (storage instanceof LocalStorage) return listLocal(storage);
  if (storage instanceof S3Storage) return listS3(storage);
  throw new Error(`Cannot list ${storage.kind} storage`);
}

async function fileRows(db: Database, where: Record<string, unknown> = {}): Promise<FileRow[]> {
  const rows = await db.models.SubmissionFile.findAll({
    attributes: ['id', 'submissionId', 'name', 'size', 'status', 'storageKey'],
    where,
    raw: true,
  });
  return rows.map((row) => ({ ...row, size: Number(row.size) }));
}

function isMissing(error: unknown): boolean {
  const e = error as { code?: unknown; name?: unknown } | null;
  return e?.code === 'ENOENT' || e?.name === 'NotFound' || e?.name === 'NoSuchKey';
}

/** The stored size of `key` now, or undefined when it is not there. */
async function storedSize(storage: UploadStorage, key: string): Promise<number | undefined> {
  try {
    return await storage.size(key);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

export async function reconcileUploads(db: Database, storage: UploadStorage): Promise<Reconciliation> {
  const stored = await listStored(storage);
  const rows = await fileRows(db);
  const byKey = new Map(rows.map((row) => [row.storageKey, row]));
  const storedByKey = new Map(stored.map((file) => [file.key, file]));

  const orphans: StoredFile[] = [];
  for (const file of stored) {
    if (byKey.has(file.key)) continue;
    // Looked at again: deleted meanwhile (bytes first, then the row) is no orphan either way.
    if ((await fileRows(db, { storageKey: file.key })).length > 0) continue;
    if ((await storedSize(storage, file.key)) === undefined) continue;
    orphans.push(file);
  }

  const missing: FileRow[] = [];
  const wrongSize: { row: FileRow; stored: number }[] = [];
  for (const row of rows) {
    if (row.status !== 'complete') continue;
    let size = storedByKey.get(row.storageKey)?.size;
    // Completed after storage was listed (S3 joins the parts, then the row says complete).
    if (size === undefined || size !== row.size) size = await storedSize(storage, row.storageKey);
    if (size === undefined) {
      if ((await fileRows(db, { id: row.id })).length > 0) missing.push(row);
    } else if (size !== row.size) {
      wrongSize.push({ row, stored: size });
    }
  }
  return { storedCount: stored.length, rowCount: rows.length, orphans, missing, wrongSize };
}

/** Deletes the given files without rows, each checked once more for a row just before. */
export async function removeOrphans(
  db: Database,
  storage: UploadStorage,
  orphans: StoredFile[],
): Promise<number> {
  let removed = 0;
  for (const file of orphans) {
    if ((await fileRows(db, { storageKey: file.key })).length > 0) continue;
    await storage.remove(file.key, null);
    removed += 1;
  }
  return removed;
}
