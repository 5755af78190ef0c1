import type { CloudPickerConfig, CloudProvider } from '@avp/shared';
import type { CloudPicker } from './types';

export type { CloudPicker, PickedCloudFile } from './types';
export { PickerError } from './types';
export { ProviderUnreachable } from './load';

export const PROVIDER_LABELS: Record<CloudProvider, string> = {
  'google-drive': 'Google Drive',
  dropbox: 'Dropbox',
  box: 'Box',
  onedrive: 'OneDrive',
};

interface PickerModule {
  /** Loads the provider's scripts (on the click that asks for it) and opens its picker. */
  pick: CloudPicker;
  /**
   * Readies what needs no network (OneDrive's sign-in library, bundled with the app) when the button
   * shows, so that the click can open the sign-in popup at once. Providers' own scripts are not loaded
   * ahead: an unreachable provider then costs nothing until its button is clicked.
   */
  warm?(config: CloudPickerConfig): Promise<void>;
}

/** Each provider's picker code is fetched only when its button is shown. */
const MODULES: Partial<Record<CloudProvider, () => Promise<PickerModule>>> = {
  'google-drive': () => import('./google').then((m) => ({ pick: m.pickFromGoogleDrive })),
  dropbox: () => import('./dropbox').then((m) => ({ pick: m.pickFromDropbox })),
  box: () => import('./box').then((m) => ({ pick: m.pickFromBox })),
  onedrive: () => import('./onedrive').then((m) => ({ pick: m.pickFromOneDrive, warm: m.preloadOneDrive })),
};

export function hasPicker(provider: CloudProvider): boolean {
  return MODULES[provider] !== undefined;
}

export async function pickerFor(provider: CloudProvider): Promise<PickerModule> {
  const load = MODULES[provider];
  if (!load) throw new Error(`No picker for ${provider}`);
  return load();
}
