import type { PartAnswer } from '@avp/shared';
import express from 'express';
import type { Request, RequestHandler, Response, Router } from 'express';
import { finished } from 'node:stream/promises';
import { createUploadStorage, isStorageFull } from '../../adapters/storage/index.js';
import type { UploadStorage } from '../../adapters/storage/index.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import { afterAnswerWork } from '../../http/after-answer.js';
import { AppError } from '../../http/errors.js';
import { endIdleBody } from '../../http/idle-body.js';
import type { Logger } from '../../logger.js';
import { requireStaffRole, requireUser } from '../accounts/index.js';
import { inboxFile, listInbox, markHandled } from './inbox.js';
import { listInboxPage } from './inbox-list.js';
import { listMine } from './mine.js';
import { pullRoute } from './pull.js';
import { inlineDisposition, posterOf } from './posters-route.js';
import { setReview } from './reviews.js';
import { isVersionRegistration, registerVersionOf } from './versions.js';
import { MediaBlockedError } from './media-probe.js';
import { RunningHashes } from './running-hash.js';
import { registerFiles } from './batch-registration.js';
import { completeFile, partQuerySha256 } from './completion.js';
import { putPartWithChecksum } from './checksum-part.js';
import { bundleEntries, receiveBundle } from './bundles.js';
import { putPart } from './part-writes.js';
import { registerFile } from './registration.js';
import { removeFile } from './removal.js';
import { createSubmission, getFile, getSubmission, submitSubmission } from './submissions.js';

const param = (req: Request, name: string) => String(req.params[name] ?? '');

/**
 * A part answered before its body was read to the end (refused, busy, cut off) closes the connection:
 * Node would neither read the rest nor reuse the connection, and the client would wait on it.
 */
const closeUnlessRead: RequestHandler = (req, res, next) => {
  res.set('Connection', 'close');
  req.once('end', () => {
    if (!res.headersSent) res.removeHeader('Connection');
  });
  next();
};

const BUSY = new Set(['part_in_progress', 'completion_in_progress']);

/** A write refused because another request holds its part or file (claims.ts) is worth another try. */
async function retryWhenBusy<T>(res: Response, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError && BUSY.has(error.code)) res.set('Retry-After', '1');
    throw error;
  }
}

/**
 * A part refused because the disk is full is read to its end (at most one part) before the 507 goes out,
 * so the client gets the answer instead of a connection cut while it is still sending.
 */
async function drainWhenFull<T>(req: Request, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isStorageFull(error) && !req.readableEnded && !req.destroyed) {
      req.resume();
      await finished(req).catch(() => undefined);
    }
    throw error;
  }
}

/** One byte range of a file, inclusive, as storage reads it. */
type ByteRange = { start: number; end: number };

/**
 * The byte range a download answers with 206, 'unsatisfiable' for 416, or undefined for the whole file:
 * no Range header, another unit, a malformed one, or several ranges (which a server may ignore).
 */
function requestedRange(req: Request, size: number): ByteRange | 'unsatisfiable' | undefined {
  const header = req.get('range');
  if (header === undefined || !header.startsWith('bytes=') || header.includes(',')) return undefined;
  const ranges = req.range(size);
  if (ranges === undefined || ranges === -2) return undefined;
  if (ranges !== -1) return ranges[0];
  // range-parser refuses a suffix longer than the file, where RFC 9110 §14.1.3 selects all of it.
  const longSuffix = size > 0 && /^bytes=-\d*[1-9]\d*$/.test(header);
  return longSuffix ? { start: 0, end: size - 1 } : 'unsatisfiable';
}

/**
 * The upload protocol (DESIGN 'Uploads', docs/api.md 'Uploads') and the staff inbox.
 *
 *   POST   /api/uploads/submissions                      create (or resume, with resume_id)
 *   GET    /api/uploads/submissions/:submissionId        with its files and received parts
 *   POST   /api/uploads/submissions/:submissionId/files  register a file (resumes the same file)
 *   POST   /api/uploads/submissions/:submissionId/files/batch  register many files in one call
 *   POST   /api/uploads/submissions/:submissionId/submit send it: staff and receipt e-mails
 *   GET    /api/uploads/files/:fileId                    the file and the parts the server holds
 *   PUT    /api/uploads/files/:fileId/parts/:partNumber  raw bytes (application/octet-stream); with
 *                                                        ?sha256= it also completes the file when whole
 *   POST   /api/uploads/bundles?files=id:size:sha256,…   whole small files in one body, each completed
 *   POST   /api/uploads/files/:fileId/complete           size and sha-256 verified
 *   DELETE /api/uploads/files/:fileId                    remove from an open submission
 *   GET    /api/uploads/inbox                            staff: sent submissions, filtered
 *   PUT    /api/uploads/inbox/:submissionId/handled      staff: { handled: boolean }
 *   GET    /api/uploads/inbox/files/:fileId/download     staff: the bytes, with Range support
 *
 * The part PUT is streamed from the request to storage: the /api JSON parser reads application/json
 * bodies only, so it never touches a part, and this route refuses any other content type.
 */
export function uploadsRoutes(deps: {
  config: Config;
  db: Database;
  logger: Logger;
  storage?: UploadStorage;
  /** Shared with every other way in to the same uploads (the legacy call), one set per app. */
  hashes?: RunningHashes;
}): Router {
  const storage = deps.storage ?? createUploadStorage(deps.config);
  const d = { ...deps, storage, hashes: deps.hashes ?? new RunningHashes() };
  const router = express.Router();
  const user = (req: Request) => req.user!;
  // The inbox and its downloads are Media's (#33).
  const media = requireStaffRole('media');

  router.post('/uploads/submissions', requireUser, async (req, res) => {
    const { created, submission } = await createSubmission({ ...d, logger: req.log }, user(req), req.body);
    res
      .status(created ? 201 : 200)
      .set('Cache-Control', 'no-store')
      .json({ submission });
  });

  router.get('/uploads/submissions/:submissionId', requireUser, async (req, res) => {
    const submission = await getSubmission(d, user(req), param(req, 'submissionId'));
    res.set('Cache-Control', 'no-store').json({ submission });
  });

  router.post('/uploads/submissions/:submissionId/files', requireUser, async (req, res) => {
    // With `replaces`: a new version of a file of the caller's sent submission (#31).
    const register = isVersionRegistration(req.body) ? registerVersionOf : registerFile;
    const { created, file } = await register(d, user(req), param(req, 'submissionId'), req.body).catch(
      (error: unknown) => {
        // 422 with the issues as a list, for the form to show each sentence (issue #30).
        if (error instanceof MediaBlockedError) {
          res
            .status(422)
            .set('Cache-Control', 'no-store')
            .json({
              error: { code: error.code, message: error.message, issues: error.check.issues },
              check: error.check,
            });
          return { created: false, file: null };
        }
        throw error;
      },
    );
    if (file === null) return;
    res
      .status(created ? 201 : 200)
      .set('Cache-Control', 'no-store')
      .json({ file });
  });

  router.post('/uploads/submissions/:submissionId/files/batch', requireUser, async (req, res) => {
    const answer = await registerFiles(d, user(req), param(req, 'submissionId'), req.body);
    res.set('Cache-Control', 'no-store').json(answer);
  });

  router.post('/uploads/submissions/:submissionId/submit', requireUser, async (req, res) => {
    const submission = await submitSubmission(
      { ...d, logger: req.log },
      user(req),
      param(req, 'submissionId'),
      req.body,
    );
    res.set('Cache-Control', 'no-store').json({ submission });
  });

  router.get('/uploads/files/:fileId', requireUser, async (req, res) => {
    res.set('Cache-Control', 'no-store').json({ file: await getFile(d, user(req), param(req, 'fileId')) });
  });

  // A body that stops arriving is ended, and with it the write and its claim on the part.
  const idleBody = endIdleBody(deps.config.UPLOAD_PART_IDLE_SECONDS);
  router.put(
    '/uploads/files/:fileId/parts/:partNumber',
    closeUnlessRead,
    idleBody,
    requireUser,
    async (req, res) => {
      if (!req.is('application/octet-stream')) {
        throw new AppError(415, 'unsupported_media_type', 'Parts are sent as application/octet-stream.');
      }
      // ?sha256=: the file's checksum, to complete it in this request once this part makes it whole.
      const sha256 = partQuerySha256(req.query.sha256);
      const fileId = param(req, 'fileId');
      const partNumber = param(req, 'partNumber');
      const length = req.get('content-length');
      let answer: PartAnswer;
      if (sha256 === undefined) {
        const part = await retryWhenBusy(
          res,
          drainWhenFull(req, putPart(d, user(req), fileId, partNumber, length, req)),
        );
        answer = { partNumber: part.partNumber, size: part.size };
      } else {
        const deps = { ...d, background: afterAnswerWork(req.app) };
        answer = await retryWhenBusy(
          res,
          drainWhenFull(req, putPartWithChecksum(deps, user(req), fileId, partNumber, length, req, sha256)),
        );
      }
      res.set('Cache-Control', 'no-store').json(answer);
    },
  );

  // Whole files of one part each, one after another in the body (issue #34): a request per bundle.
  router.post('/uploads/bundles', closeUnlessRead, idleBody, requireUser, async (req, res) => {
    if (!req.is('application/octet-stream')) {
      throw new AppError(415, 'unsupported_media_type', 'Bundles are sent as application/octet-stream.');
    }
    const entries = bundleEntries(req.query.files, req.get('content-length'));
    const deps = { ...d, background: afterAnswerWork(req.app) };
    const files = await receiveBundle(deps, user(req), entries, req, req.log);
    res.set('Cache-Control', 'no-store').json({ files });
  });

  router.post('/uploads/files/:fileId/complete', requireUser, async (req, res) => {
    const background = afterAnswerWork(req.app);
    const file = await retryWhenBusy(
      res,
      completeFile({ ...d, background }, user(req), param(req, 'fileId'), req.body),
    );
    res.set('Cache-Control', 'no-store').json({ file });
  });

  router.delete('/uploads/files/:fileId', requireUser, async (req, res) => {
    await removeFile(d, user(req), param(req, 'fileId'));
    res.status(204).end();
  });

  router.get('/uploads/inbox', media, async (req, res) => {
    const page = await listInboxPage(d.db, req.query);
    // submissions: the page's submissions in the first inbox's shape, for the screens and tools made for it.
    const ids = page.groups.flatMap((g) => g.companies.flatMap((c) => c.files.map((f) => f.submission.id)));
    const submissions = await listInbox(d.db, {}, [...new Set(ids)]);
    res.set('Cache-Control', 'no-store').json({ ...page, submissions });
  });

  router.put('/uploads/inbox/files/:fileId/review', media, async (req, res) => {
    const actor = { userId: user(req).id, ip: req.ip ?? null };
    const file = await setReview(d, actor, param(req, 'fileId'), req.body);
    res.set('Cache-Control', 'no-store').json({ file });
  });

  router.get('/uploads/inbox/files/:fileId/poster', media, async (req, res) => {
    const poster = await posterOf(d, param(req, 'fileId'));
    if (!poster) {
      res.status(204).set('Cache-Control', 'no-store').end();
      return;
    }
    res.set({ 'Content-Type': 'image/jpeg', 'Cache-Control': 'private, max-age=3600' });
    poster.on('error', (error) => res.destroy(error));
    poster.pipe(res);
  });

  router.get('/uploads/pull', media, pullRoute(d.db));

  router.get('/uploads/mine', requireUser, async (req, res) => {
    res.set('Cache-Control', 'no-store').json({ submissions: await listMine(d.db, user(req)) });
  });

  router.put('/uploads/inbox/:submissionId/handled', media, async (req, res) => {
    const actor = { userId: user(req).id, ip: req.ip ?? null };
    res
      .set('Cache-Control', 'no-store')
      .json(await markHandled(d.db, actor, param(req, 'submissionId'), req.body));
  });

  router.get('/uploads/inbox/files/:fileId/download', media, async (req, res) => {
    const file = await inboxFile(d.db, param(req, 'fileId'));
    const size = Number(file.size);
    const range = requestedRange(req, size);
    // The name as given, with an ASCII fallback and RFC 8187's filename* when it needs one.
    res.attachment(file.name).set({
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'private, no-store',
      'Content-Type': 'application/octet-stream',
      ETag: `"${file.sha256 ?? file.id}"`,
    });
    // ?inline=1: the inbox's preview (<video>, <img>) plays it in place, typed as a browser can show it.
    if (req.query.inline === '1') inlineDisposition(res, file);
    if (range === 'unsatisfiable') {
      res.status(416).set('Content-Range', `bytes */${size}`).end();
      return;
    }
    if (range) {
      res.status(206).set({
        'Content-Range': `bytes ${range.start}-${range.end}/${size}`,
        'Content-Length': String(range.end - range.start + 1),
      });
    } else {
      res.status(200).set('Content-Length', String(size));
    }
    if (req.method === 'HEAD' || size === 0) {
      res.end();
      return;
    }
    const stream = await storage.read(file.storageKey, range ?? undefined);
    stream.on('error', (error) => {
      req.log.error({ err: error, fileId: file.id }, 'download failed mid-stream');
      res.destroy(error);
    });
    res.on('close', () => stream.destroy());
    stream.pipe(res);
  });

  return router;
}
