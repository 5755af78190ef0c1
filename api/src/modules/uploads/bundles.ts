import type { Readable } from 'node:stream';
import { isUuid, UPLOAD_BUNDLE_MAX_BYTES, UPLOAD_BUNDLE_MAX_FILES } from '@avp/shared';
import type { BundleEntry, BundleItem } from '@avp/shared';
import { AppError, toAppError } from '../../http/errors.js';
import type { Logger } from '../../logger.js';
import type { SessionUser } from '../accounts/index.js';
import { BodySegments } from './body-segments.js';
import { putPartWithChecksum } from './checksum-part.js';
import type { UploadsDeps } from './common.js';
import type { BackgroundTracker } from './media-probe.js';
import { partQuerySha256 } from './completion.js';
import type { WriteClaim } from './claims.js';
import { claimOwnOnlyParts, lookAtBundle, releaseBundleClaims } from './part-writes.js';

/**
 * Bundles (issue #34): many small files, whole, in one request. Each is stored and completed as its own
 * part PUT with ?sha256= would be, under the same claims and checks, one after another in the order of
 * the bytes; one file refused does not refuse the others.
 */

const ENTRY = /^([^:]+):(\d{1,16}):([^:]*)$/;

function badList(message: string): AppError {
  return new AppError(400, 'bad_bundle', message);
}

/**
 * The bundle's list (`files`, `<id>:<size>:<sha-256>` joined by commas) checked against its declared
 * length before a byte is read: at most UPLOAD_BUNDLE_MAX_FILES files and UPLOAD_BUNDLE_MAX_BYTES bytes,
 * each file once and at least a byte long, the sizes adding up to the Content-Length.
 */
export function bundleEntries(files: unknown, contentLength: string | undefined): BundleEntry[] {
  if (typeof files !== 'string' || files === '') throw badList('A bundle names its files in `files`.');
  const parts = files.split(',');
  if (parts.length > UPLOAD_BUNDLE_MAX_FILES) {
    throw badList(`A bundle carries at most ${UPLOAD_BUNDLE_MAX_FILES} files.`);
  }
  const seen = new Set<string>();
  const entries = parts.map((part) => {
    const match = ENTRY.exec(part);
    if (!match) throw badList('Each file of a bundle is named as <id>:<size>:<sha-256>.');
    const [, fileId, sizeText, sha] = match as unknown as [string, string, string, string];
    if (!isUuid(fileId)) throw badList(`${fileId} is not a file id.`);
    if (seen.has(fileId)) throw badList('A bundle names each file once.');
    seen.add(fileId);
    const size = Number(sizeText);
    if (size < 1) throw badList('Empty files are not sent in a bundle.');
    return { fileId, size, sha256: partQuerySha256(sha)! };
  });
  const total = entries.reduce((sum, e) => sum + e.size, 0);
  if (total > UPLOAD_BUNDLE_MAX_BYTES) {
    throw badList(`A bundle carries at most ${UPLOAD_BUNDLE_MAX_BYTES} bytes.`);
  }
  if (contentLength === undefined) throw new AppError(411, 'length_required', 'Content-Length is required.');
  if (!/^\d+$/.test(contentLength) || Number(contentLength) !== total) {
    throw badList(`The bundle's files add up to ${total} bytes.`);
  }
  return entries;
}

/**
 * Stores and completes the files of a bundle from `body`, in order. A file refused (not the caller's,
 * complete with another checksum, being written by another request) is answered with the error its own
 * PUT would get, and its bytes are skipped. A failure of the server's own (storage or database
 * unavailable, the disk full) stops the bundle: that file and the ones after it are answered with it,
 * and their bytes read and dropped, for each to be sent alone (where the usual retries apply). A request
 * that fails or ends early rejects: nobody is left to answer.
 */
export async function receiveBundle(
  deps: UploadsDeps,
  user: SessionUser,
  entries: BundleEntry[],
  body: Readable,
  logger: Logger,
): Promise<BundleItem[]> {
  // Every file's completion claim in one statement, and back in one (a statement each was most of what
  // kept SQLite's one writer busy, #34); a file not claimed here goes the usual way, to its usual answer.
  const claims = await claimOwnOnlyParts(
    deps.db,
    user,
    entries.map((e) => e.fileId),
  );
  const background = new HeldBackground(deps.background);
  try {
    // Their files looked at together, under the claims, rather than one statement each as each comes.
    await lookAtBundle(deps.db, claims.values());
    return await receiveInOrder({ ...deps, background }, user, entries, body, logger, claims);
  } finally {
    background.release();
    await releaseBundleClaims(deps.db, claims.values()).catch((error: unknown) => {
      // They run out on their own (claims.ts); only another write of those files waits for that.
      logger.warn({ err: error }, "could not release a bundle's claims");
    });
  }
}

async function receiveInOrder(
  deps: UploadsDeps,
  user: SessionUser,
  entries: BundleEntry[],
  body: Readable,
  logger: Logger,
  claims: Map<string, WriteClaim>,
): Promise<BundleItem[]> {
  const segments = new BodySegments(body);
  // Each file's answer, in order. A file's completion (its checksum checked, its row recorded) goes on
  // while the next file's bytes are read, so that the completions of a bundle's files, waiting for the
  // database's write turn together, are recorded together (only-part-records.ts).
  const answers: Promise<BundleItem>[] = [];
  let stopped: AppError | null = null;
  for (const entry of entries) {
    if (stopped) {
      answers.push(Promise.resolve({ id: entry.fileId, error: errorOf(stopped) }));
      continue;
    }
    const segment = segments.next(entry.size);
    const answer = putPartWithChecksum(
      deps,
      user,
      entry.fileId,
      '1',
      String(entry.size),
      segment,
      entry.sha256,
      claims.get(entry.fileId),
    ).then(
      (put): BundleItem => (put.file ? { id: entry.fileId, file: put.file } : { id: entry.fileId }),
      (error: unknown): BundleItem => {
        const known = toAppError(error);
        if (known && known.status < 500) return { id: entry.fileId, error: errorOf(known) };
        // The request itself is gone (thrown below, once every file under way is done with).
        if (segments.failure) return { id: entry.fileId, error: errorOf(INTERNAL()) };
        logger.error({ err: error, fileId: entry.fileId }, 'bundle stopped: a file could not be stored');
        // The files not begun yet are answered with it; those under way answer for themselves.
        const failure = known ?? INTERNAL();
        stopped ??= failure;
        return { id: entry.fileId, error: errorOf(failure) };
      },
    );
    answers.push(answer);
    // The next file starts once this one's bytes are all handed to its write, or its write ended early
    // (refused before a byte, or failed): what it left unread is then read and dropped.
    await Promise.race([segments.handedOver().catch(() => undefined), answer]);
    try {
      await segments.settle();
    } catch {
      break; // The request failed: no more files come.
    }
  }
  // Every file under way is done with before its claim is given back (receiveBundle) or anything thrown.
  const items = await Promise.all(answers);
  // The request itself is gone: no answer can reach anyone.
  if (segments.failure) throw segments.failure;
  await segments.finish();
  return items;
}

const INTERNAL = () => new AppError(500, 'internal', 'Internal server error');

/**
 * The background work of the bundle's completions (each file's media reading and poster), begun together
 * once the last file is in rather than one file at a time: their rows are then written a few to a
 * statement (db/grouped-statements.ts) instead of one each, while the bundle's bytes wait for no statement.
 */
class HeldBackground implements BackgroundTracker {
  #held: Array<() => void> = [];

  constructor(private readonly outer: BackgroundTracker | undefined) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#held.push(() => void (this.outer ? this.outer.run(work) : work()).then(resolve, reject));
    });
  }

  release(): void {
    const held = this.#held;
    this.#held = [];
    for (const begin of held) begin();
  }
}

function errorOf(error: AppError): NonNullable<BundleItem['error']> {
  return { status: error.status, code: error.code, message: error.message };
}
