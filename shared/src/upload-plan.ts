/**
 * How a file is cut into parts for the multipart upload protocol (DESIGN 'Uploads'). The server and
 * every client compute the same plan from the file size alone, so a resumed upload agrees on part
 * boundaries without storing them.
 */
import { MIB, S3_MAX_PARTS, UPLOAD_PART_SIZE } from './constants.js';

export interface UploadPlan {
  fileSize: number;
  partSize: number;
  partCount: number;
  /** Size of the final part; 0 only for an empty file. */
  lastPartSize: number;
}

export interface PartRange {
  start: number;
  /** Exclusive. */
  end: number;
  size: number;
}

function assertFileSize(fileSize: number): void {
  if (!Number.isSafeInteger(fileSize) || fileSize < 0) {
    throw new RangeError(`File size must be a whole, non-negative number of bytes (got ${fileSize})`);
  }
}

/**
 * Exact ceiling division of non-negative safe integers. `a / b` alone is rounded to a double, and near the
 * top of the safe range that rounding can hide the one extra byte that needs one more part.
 */
function ceilDiv(a: number, b: number): number {
  const remainder = a % b;
  return (a - remainder) / b + (remainder > 0 ? 1 : 0);
}

/**
 * 6 MiB (SPEC §9), unless that needs more parts than S3 allows; then the smallest whole number of MiB
 * that fits the file in S3_MAX_PARTS parts, so that parts stay aligned to MiB for the storage drivers.
 */
export function partSizeFor(fileSize: number): number {
  assertFileSize(fileSize);
  if (ceilDiv(fileSize, UPLOAD_PART_SIZE) <= S3_MAX_PARTS) return UPLOAD_PART_SIZE;
  return ceilDiv(fileSize, S3_MAX_PARTS * MIB) * MIB;
}

export function planUpload(fileSize: number): UploadPlan {
  const partSize = partSizeFor(fileSize);
  const partCount = ceilDiv(fileSize, partSize);
  const lastPartSize = partCount === 0 ? 0 : fileSize - (partCount - 1) * partSize;
  return { fileSize, partSize, partCount, lastPartSize };
}

/** Byte range of a part; part numbers are 1-based, as in S3. */
export function partRange(plan: UploadPlan, partNumber: number): PartRange {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > plan.partCount) {
    throw new RangeError(
      `Part number must be a whole number from 1 to ${plan.partCount} (got ${partNumber})`,
    );
  }
  const start = (partNumber - 1) * plan.partSize;
  const end = Math.min(start + plan.partSize, plan.fileSize);
  return { start, end, size: end - start };
}

/** The part numbers still to send, ascending; numbers outside the plan are ignored. */
export function missingParts(plan: UploadPlan, receivedPartNumbers: Iterable<number>): number[] {
  const received = new Set(receivedPartNumbers);
  const missing: number[] = [];
  for (let part = 1; part <= plan.partCount; part++) {
    if (!received.has(part)) missing.push(part);
  }
  return missing;
}
