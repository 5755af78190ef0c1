import type { CloudPickerConfig, CloudProvider } from '@avp/shared';
import type { CloudPicker } from './types';

export type { CloudPicker, PickedCloudFile } from './types';
export { PickerError } from './types';

export const PROVIDER_LABELS: Record<CloudProvider, string> = {
  'google-drive': 'Google Drive',
  dropbox: 'Dropbox',
  box: 'Box',
  onedrive: 'OneDrive',
};

interface PickerModule {
  pick: CloudPicker;
  preload(config: CloudPickerConfig): Promise<void>;
}

/** Each provider's picker code is fetched only when its button is shown. */
const MODULES: Partial<Record<CloudProvider, () => Promise<PickerModule>>> = {
  'google-drive': () =>
    import('./google').then((m) => ({ pick: m.pickFromGoogleDrive, preload: m.preloadGoogle })),
  dropbox: () => import('./dropbox').then((m) => ({ pick: m.pickFromDropbox, preload: m.preloadDropbox })),
  box: () => import('./box').then((m) => ({ pick: m.pickFromBox, preload: m.preloadBox })),
  onedrive: () =>
    import('./onedrive').then((m) => ({ pick: m.pickFromOneDrive, preload: m.preloadOneDrive })),
};

export function hasPicker(provider: CloudProvider): boolean {
  return MODULES[provider] !== undefined;
}

export async function pickerFor(provider: CloudProvider): Promise<PickerModule> {
  const load = MODULES[provider];
  if (!load) throw new Error(`No picker for ${provider}`);
  return load();
}
