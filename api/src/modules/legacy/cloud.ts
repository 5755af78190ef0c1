import { AppError } from '../../http/errors.js';
import type { SessionUser } from '../accounts/index.js';
import type { LegacyDeps } from './routes.js';

/** SPEC §3 'auth_file_url': file name to the provider's link and access token, for cloud-picked files. */
export type CloudPicks = Record<string, { link: string; token?: string | undefined }>;

export const CLOUD_IMPORT_UNAVAILABLE =
  'Files from cloud storage cannot be sent through this call yet; use the upload page.';

/**
 * Brings cloud-picked files into a submission, server-side (DESIGN 'Uploads': the server streams the file
 * from the provider into storage). Server-side cloud imports do not exist yet, so a call that names any
 * is refused before anything is sent; when they land, this is where the legacy call hands each pick to
 * them, with the submission it belongs to.
 */
export async function importCloudPicks(
  _deps: LegacyDeps,
  _user: SessionUser,
  _submissionId: string,
  picks: CloudPicks | undefined,
): Promise<void> {
  if (picks === undefined || Object.keys(picks).length === 0) return;
  throw new AppError(400, 'cloud_import_unavailable', CLOUD_IMPORT_UNAVAILABLE, {
    auth_file_url: CLOUD_IMPORT_UNAVAILABLE,
  });
}
