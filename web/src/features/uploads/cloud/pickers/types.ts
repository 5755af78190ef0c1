import type { CloudPickerConfig, CloudProvider } from '@avp/shared';

/**
 * One file a provider's picker handed back, ready to post as a cloud import
 * (cloudImportRequestSchema): the provider's file id or link, its name and size when the picker knows
 * them, and the access token the picker's sign-in gave (none for a Dropbox direct link).
 */
export interface PickedCloudFile {
  provider: CloudProvider;
  fileId?: string;
  /** OneDrive: the drive `fileId` is in (both may contain '!', so they travel apart). */
  driveId?: string;
  link?: string;
  name: string;
  size?: number;
  mimeType?: string;
  accessToken?: string;
}

/**
 * Opens the provider's own picker (loading its scripts from `config.scripts` on first use) and resolves
 * with the files picked, or null when the user closed it without picking (SPEC §4: a cancel is silent).
 * Rejects with a PickerError when sign-in or the picker fails; the form then shows
 * 'Unable to Save File. Please Try Again or Contact For Help' (SPEC §8).
 */
export type CloudPicker = (config: CloudPickerConfig) => Promise<PickedCloudFile[] | null>;

export class PickerError extends Error {
  override name = 'PickerError';
}
