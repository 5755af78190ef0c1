import path from 'node:path';
import type { Config } from '../../config.js';
import { diskWritesFor } from './disk-writes.js';
import { assertWritable, LocalStorage } from './local.js';
import { S3Storage } from './s3.js';
import type { UploadStorage } from './types.js';
import { writeSlotsFor } from './write-slots.js';

export { LocalStorage, exactSize } from './local.js';
export { S3Storage } from './s3.js';
export { defaultDiskWrites, DiskWrites, diskWritesFor } from './disk-writes.js';
export { WriteSlots, writeSlotsFor } from './write-slots.js';
export { holdChunk, isStorageFull, PartSizeError, releaseChunk, StorageUnavailableError } from './types.js';
export type { PartRef, UploadStorage } from './types.js';

export type StorageKind = 'local' | 's3';
type StorageConfig = Pick<Config, 'STORAGE_DRIVER' | 'DATA_DIR'>;

/**
 * The driver STORAGE_DRIVER names: files under DATA_DIR/uploads, or an S3 bucket. Its part writes share
 * the process's UPLOAD_PART_CONCURRENCY slots with every other storage made from the same settings, and
 * local storage's file writes its UPLOAD_DISK_WRITES turns.
 */
export function createUploadStorage(
  config: StorageConfig &
    Pick<Config, 'S3_BUCKET' | 'S3_REGION' | 'S3_ENDPOINT' | 'S3_FORCE_PATH_STYLE'> &
    Partial<Pick<Config, 'UPLOAD_PART_CONCURRENCY' | 'UPLOAD_DISK_WRITES'>>,
): UploadStorage {
  const slots = writeSlotsFor(config);
  return config.STORAGE_DRIVER === 's3'
    ? new S3Storage(config, slots)
    : new LocalStorage(localUploadsDir(config), slots, diskWritesFor(config));
}

export function storageKind(config: StorageConfig): StorageKind {
  return config.STORAGE_DRIVER;
}

/** Where the local driver keeps upload parts and finished files. */
export function localUploadsDir(config: Pick<Config, 'DATA_DIR'>): string {
  return path.join(config.DATA_DIR, 'uploads');
}

/**
 * The storage part of the health check. Local storage must be able to write its uploads folder. With S3
 * the bytes go to the bucket, but DATA_DIR still holds generated secrets and (without SMTP) the mail
 * files, so it must be writable too.
 */
export async function checkStorage(config: StorageConfig): Promise<void> {
  await assertWritable(config.STORAGE_DRIVER === 'local' ? localUploadsDir(config) : config.DATA_DIR);
}
