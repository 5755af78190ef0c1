import type { Readable } from 'node:stream';
import { partRange, planUpload } from '@avp/shared';
import type { PartAnswer } from '@avp/shared';
import { AppError } from '../../http/errors.js';
import type { SessionUser } from '../accounts/index.js';
import type { UploadsDeps } from './common.js';
import { completeAfterPart } from './completion.js';
import { putPart } from './part-writes.js';
import type { WriteClaim } from './claims.js';

/**
 * A part sent with its file's sha-256 (a part PUT with ?sha256=, or one file of a bundle): stored, and
 * the file completed in the same request once this part makes it whole (issue #34). The answer carries
 * `file` when the file is complete: at once for a file of one part (its part and completion under one
 * claim), or by a completion tried after the part. A part sent again after its answer was lost finds the
 * file complete: the same answer as the first time (or the checksum's mismatch), not a refusal.
 */
export async function putPartWithChecksum(
  deps: UploadsDeps,
  user: SessionUser,
  fileId: string,
  partParam: string,
  contentLength: string | undefined,
  body: Readable,
  sha256: string,
  /** The file's completion claim, when a bundle took it with the others' (part-writes.ts putPart). */
  bundleClaim?: WriteClaim,
): Promise<PartAnswer> {
  const part = await putPart(deps, user, fileId, partParam, contentLength, body, sha256, bundleClaim).catch(
    (error: unknown) => {
      if (!(error instanceof AppError) || error.code !== 'file_complete') throw error;
      return null;
    },
  );
  const file = part?.file ?? (await completeAfterPart(deps, user, fileId, sha256, part?.target));
  const answer: PartAnswer = part
    ? { partNumber: part.partNumber, size: part.size }
    : {
        partNumber: Number(partParam),
        size: partRange(planUpload(file!.size), Number(partParam)).size,
      };
  return file ? { ...answer, file } : answer;
}
