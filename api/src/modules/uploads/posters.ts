import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Turns } from '@avp/shared';
import type { UploadStorage } from '../../adapters/storage/index.js';
import type { Config } from '../../config.js';
import { dateParam } from '../../db/bind.js';
import { GroupedStatements, groupedPer } from '../../db/grouped-statements.js';
import type { Database } from '../../db/index.js';
import type { MediaFactsInstance } from '../../db/models/index.js';
import type { Logger } from '../../logger.js';
import { turnsFor } from '../../process-turns.js';
import { probeInProgress, probesSettled } from './media-probe.js';
import type { BackgroundTracker } from './media-probe.js';
import { openStoredRanges } from './stored-ranges.js';

/**
 * Poster frames and thumbnails for the staff inbox (#31), drawn in the background after a file completes: at
 * most POSTER_READ_BYTES of the stored file (local or S3, one ranged read through stored-ranges.ts) go to a
 * temporary file, ffmpeg draws one small JPEG from it, and the JPEG is kept in upload storage beside the
 * file. A file ffmpeg cannot decode gets no poster ('none'), with a debug line, never an error.
 */

/** Enough of the start of most videos (fast-start MP4s, MOVs of a few minutes) and of any image. */
export const POSTER_READ_BYTES = 64 * 1024 * 1024;
export const POSTER_WIDTH = 480;
const FFMPEG_TIMEOUT_MS = 30_000;

export type PosterDeps = {
  config: Pick<Config, 'MEDIA_PROBE_CONCURRENCY' | 'MEDIA_PROBE_TIMEOUT_SECONDS'>;
  db: Database;
  logger: Logger;
  storage: UploadStorage;
};

/** The machine's ffmpeg, else the one @ffmpeg-installer/ffmpeg ships; null when neither is there. */
export function ffmpegPath(): string | null {
  if (existsSync('/usr/bin/ffmpeg')) return '/usr/bin/ffmpeg';
  try {
    const found = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path?: string }).path;
    return found && existsSync(found) ? found : null;
  } catch {
    return null;
  }
}

/** Beside the files, under their own prefix: 'posters/<submission>/<file>' (the local driver's key shape). */
export function posterKey(storageKey: string): string {
  return storageKey.replace(/^submissions\//, 'posters/');
}

/** A few posters at a time per process (MEDIA_PROBE_CONCURRENCY, as the readings); the rest wait their turn. */
function posterTurns(config: Pick<Config, 'MEDIA_PROBE_CONCURRENCY'>): Turns {
  return turnsFor(config, config.MEDIA_PROBE_CONCURRENCY, 'posters', (n) => new Turns(n, 'Posters'))!;
}
const running = new Map<string, Promise<void>>();

/** Draws a completed file's poster in the background (call it after the answer); never throws. */
export function schedulePoster(deps: PosterDeps, fileId: string, tracker?: BackgroundTracker): Promise<void> {
  const existing = running.get(fileId);
  if (existing) return existing;
  // The facts read first (media-probe.ts, begun with the same completion), so that makePoster knows
  // whether there is a picture to draw at all; waiting here, not in the limiter, holds no poster slot.
  const probeWaitMs = (deps.config.MEDIA_PROBE_TIMEOUT_SECONDS + 5) * 1000;
  // The reading begun with the same completion hands over the row it stored: a file it found no picture
  // in is marked at once, with no poster slot and no second look at the file or its facts (#34).
  const probe = probeInProgress(fileId);
  const work = async () => {
    try {
      let facts: MediaFactsInstance | null | undefined;
      if (probe) facts = await within(probe, probeWaitMs);
      else await probesSettled([fileId], probeWaitMs);
      if (facts && !pictured(facts)) await markNone(deps, fileId);
      else await posterTurns(deps.config).run(() => makePoster(deps, fileId));
    } catch (error) {
      deps.logger.debug({ err: error, fileId }, 'no poster drawn');
    }
  };
  const promise = tracker ? tracker.run(work) : work();
  running.set(fileId, promise);
  void promise.finally(() => running.delete(fileId));
  return promise;
}

/** Waits for this process's posters of these files (tests, and nothing else needs to). */
export async function postersSettled(fileIds: string[]): Promise<void> {
  await Promise.allSettled(fileIds.map((id) => running.get(id)).filter((p) => p !== undefined));
}

/** The promise's value, or undefined when it has not settled in `ms` (or failed). */
async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work.catch(() => undefined),
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the server's reading found something ffmpeg could draw: a video or an image. */
function pictured(facts: Pick<MediaFactsInstance, 'readable' | 'kind'>): boolean {
  return facts.readable && (facts.kind === 'video' || facts.kind === 'image');
}

/**
 * No poster for complete files, in one UPDATE; a poster made meanwhile (another process) stays. A plain
 * statement: the model's update cost more than the write, once for every file of a folder (#34).
 */
async function markNoneAll(db: Database, fileIds: string[]): Promise<void[]> {
  await db.sequelize.query(
    `UPDATE submission_files SET poster_state = 'none', poster_key = NULL, updated_at = :now
     WHERE id IN (:fileIds) AND status = 'complete' AND (poster_state IS NULL OR poster_state <> 'made')`,
    { replacements: { fileIds, now: dateParam(db.dialect, new Date()) } },
  );
  return fileIds.map(() => undefined);
}

/** The marks asked for while one is on its way go together, in one statement (db/grouped-statements.ts). */
const noneMarks = groupedPer(
  (db: Database) =>
    new GroupedStatements<string, void>({
      many: (fileIds) => markNoneAll(db, fileIds),
      one: async (fileId) => void (await markNoneAll(db, [fileId])),
    }),
);

function markNone(deps: PosterDeps, fileId: string): Promise<void> {
  return noneMarks(deps.db).run(fileId);
}

export async function makePoster(deps: PosterDeps, fileId: string): Promise<'made' | 'none'> {
  const file = await deps.db.models.SubmissionFile.findByPk(fileId);
  if (!file || file.status !== 'complete' || file.posterState === 'made') return 'none';
  // Where the server's reader found no picture (sound, a document, bytes no parser knows), the stored bytes
  // are not copied out for ffmpeg at all: for a show's folder of slides and clips that copy was most of a
  // completion's background work (#34). With no facts row (the probe failed or is still out), ffmpeg tries.
  const facts = await deps.db.models.MediaFacts.findOne({ where: { fileId, source: 'server' } });
  if (facts && !pictured(facts)) {
    await file.update({ posterState: 'none', posterKey: null });
    return 'none';
  }
  const ffmpeg = ffmpegPath();
  const dir = await mkdtemp(path.join(tmpdir(), 'avp-poster-'));
  try {
    const size = Number(file.size);
    const jpeg = ffmpeg && size > 0 ? await draw(deps, ffmpeg, dir, file.storageKey, size) : null;
    if (!jpeg) {
      deps.logger.debug({ fileId, ffmpeg }, 'no poster: nothing ffmpeg could draw');
      await file.update({ posterState: 'none', posterKey: null });
      return 'none';
    }
    const key = posterKey(file.storageKey);
    const uploadId = await deps.storage.begin(key, jpeg.length, 'image/jpeg');
    const etag = await deps.storage.writePart({
      key,
      uploadId,
      partNumber: 1,
      offset: 0,
      size: jpeg.length,
      body: Readable.from([jpeg]),
    });
    await deps.storage.finish({ key, uploadId, parts: [{ partNumber: 1, etag }], size: jpeg.length });
    await file.update({ posterState: 'made', posterKey: key });
    return 'made';
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The first bytes of the stored file to a temporary file, then one scaled frame as JPEG, or null. */
async function draw(
  deps: PosterDeps,
  ffmpeg: string,
  dir: string,
  key: string,
  size: number,
): Promise<Buffer | null> {
  const input = path.join(dir, 'input');
  const output = path.join(dir, 'poster.jpg');
  const ranges = await openStoredRanges(deps.storage, key, size);
  try {
    await pipeline(await ranges.stream(0, POSTER_READ_BYTES), createWriteStream(input));
  } finally {
    await ranges.close();
  }
  const ok = await new Promise<boolean>((resolve) => {
    const child = spawn(
      ffmpeg,
      [
        '-v',
        'error',
        '-nostdin',
        '-y',
        '-ss',
        '0',
        '-i',
        input,
        '-frames:v',
        '1',
        '-vf',
        `scale='min(${POSTER_WIDTH},iw)':-2`,
        '-q:v',
        '5',
        '-f',
        'image2',
        output,
      ],
      { stdio: ['ignore', 'ignore', 'ignore'] },
    );
    const timer = setTimeout(() => child.kill('SIGKILL'), FFMPEG_TIMEOUT_MS);
    child.on('error', () => resolve(false));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
  if (!ok) return null;
  const jpeg = await readFile(output).catch(() => null);
  return jpeg && jpeg.length > 0 ? jpeg : null;
}
