import path from 'node:path';
import type { Config } from '../../config.js';
import { assertWritable } from './local.js';

export type StorageKind = 'local' | 's3';
type StorageConfig = Pick<Config, 'STORAGE_DRIVER' | 'DATA_DIR'>;

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
