/** Words for the cloud accounts and their imports, shared by Settings → Accounts, the form and the queue. */
import type { CloudProvider, FileView } from './api';

/** As engine/cloud/config.ts names them (the window does not load the engine's modules). */
export const PROVIDER_LABELS: Record<CloudProvider, string> = {
  'google-drive': 'Google Drive',
  dropbox: 'Dropbox',
  box: 'Box',
  onedrive: 'OneDrive',
};

type ImportStatus = NonNullable<NonNullable<FileView['cloud']>['status']>;

/** The server's state of a copy from a cloud account, as the queue shows it. */
export const IMPORT_LABELS: Record<ImportStatus | 'starting', string> = {
  starting: 'Asking our server to copy it',
  queued: 'Waiting for our server',
  running: 'Copying on our server',
  needs_auth: 'Sign-in needed',
  failed: 'Failed',
  complete: 'Done',
};

export function importLabel(file: FileView): string | null {
  if (!file.cloud) return null;
  if (file.state === 'failed') return IMPORT_LABELS.failed;
  if (file.state === 'paused') return 'Paused';
  if (file.state === 'complete') return IMPORT_LABELS.complete;
  return IMPORT_LABELS[file.cloud.status ?? 'starting'];
}
