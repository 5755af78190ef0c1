import type { CloudPickerConfig } from '@avp/shared';
import { loadAsset, ProviderUnreachable } from './load';
import type { CloudPicker } from './types';

/**
 * Dropbox Chooser: the user picks in Dropbox's own window and we get direct links (linkType 'direct'),
 * which our server reads with Range requests and no token; Dropbox keeps them valid for 4 hours.
 */

interface ChooserFile {
  name: string;
  link: string;
  bytes: number;
}
declare global {
  interface Window {
    Dropbox?: {
      choose(options: {
        success: (files: ChooserFile[]) => void;
        cancel?: () => void;
        linkType: 'direct' | 'preview';
        multiselect: boolean;
        folderselect?: boolean;
      }): void;
    };
  }
}

export function preloadDropbox(config: CloudPickerConfig): Promise<void> {
  return Promise.all(
    // The Chooser reads its app key from its own script tag.
    config.scripts.map((url) => loadAsset(url, { id: 'dropboxjs', 'data-app-key': config.clientId })),
  ).then(() => undefined);
}

export const pickFromDropbox: CloudPicker = async (config) => {
  await preloadDropbox(config);
  const chooser = window.Dropbox;
  if (!chooser) throw new ProviderUnreachable('The Dropbox Chooser did not load');
  return new Promise((resolve) => {
    chooser.choose({
      linkType: 'direct',
      multiselect: true,
      folderselect: false,
      success: (files) =>
        resolve(
          files.map((f) => ({ provider: 'dropbox' as const, link: f.link, name: f.name, size: f.bytes })),
        ),
      cancel: () => resolve(null),
    });
  });
};
