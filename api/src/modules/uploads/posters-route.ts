import { isUuid } from '@avp/shared';
import type { Response } from 'express';
import type { Readable } from 'node:stream';
import type { UploadStorage } from '../../adapters/storage/index.js';
import type { Database } from '../../db/index.js';
import { AppError } from '../../http/errors.js';
import { FILE_NOT_FOUND } from './common.js';

/**
 * A file's poster JPEG from upload storage; null when the file has none (not drawn yet, or nothing could
 * be: answered 204); 404 for no such file.
 */
export async function posterOf(
  deps: { db: Database; storage: UploadStorage },
  fileId: string,
): Promise<Readable | null> {
  const file = isUuid(fileId) ? await deps.db.models.SubmissionFile.findByPk(fileId) : null;
  if (!file) throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
  if (file.posterState !== 'made' || !file.posterKey) return null;
  return deps.storage.read(file.posterKey);
}

/**
 * Types a browser may show in place. SVG is left out: it can carry script, which would run on this
 * origin; anything else stays an attachment of application/octet-stream.
 */
const INLINE_TYPE = /^(video|audio|image)\/[a-z0-9.+-]+$/i;

/** The file's media type when a browser may show it in place (the preview), else null. */
export function inlineType(declared: string): string | null {
  const type = declared.trim().toLowerCase();
  return INLINE_TYPE.test(type) && !type.includes('svg') ? type : null;
}

/** Serves the download for the inbox's preview: inline, with the file's own media type when safe. */
export function inlineDisposition(res: Response, file: { name: string; type: string }): void {
  const type = inlineType(file.type);
  if (!type) return;
  const disposition = String(res.get('Content-Disposition') ?? '').replace(/^attachment/, 'inline');
  res.set({
    'Content-Type': type,
    'Content-Disposition': disposition || 'inline',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
  });
}
