import type { CloudConfigAnswer, CloudPickerConfig } from '@avp/shared';
import type { Config } from '../../config.js';

/**
 * The pickers the portal shows: a provider appears only when every key its picker needs is set. Every
 * value here is public by design (a browser client id, an API key restricted to the Picker API).
 */
export function cloudPickers(config: Config): CloudConfigAnswer {
  const providers: CloudPickerConfig[] = [];
  if (config.GOOGLE_CLIENT_ID && config.GOOGLE_API_KEY) {
    providers.push({
      provider: 'google-drive',
      clientId: config.GOOGLE_CLIENT_ID,
      apiKey: config.GOOGLE_API_KEY,
      ...(config.GOOGLE_APP_ID ? { appId: config.GOOGLE_APP_ID } : {}),
      scripts: config.GOOGLE_PICKER_SCRIPTS,
    });
  }
  if (config.DROPBOX_APP_KEY) {
    providers.push({
      provider: 'dropbox',
      clientId: config.DROPBOX_APP_KEY,
      scripts: config.DROPBOX_PICKER_SCRIPTS,
    });
  }
  if (config.BOX_CLIENT_ID && config.BOX_CLIENT_SECRET) {
    providers.push({
      provider: 'box',
      clientId: config.BOX_CLIENT_ID,
      scripts: config.BOX_PICKER_SCRIPTS,
      authorizeUrl: config.BOX_AUTHORIZE_URL,
    });
  }
  if (config.ONEDRIVE_CLIENT_ID) {
    providers.push({
      provider: 'onedrive',
      clientId: config.ONEDRIVE_CLIENT_ID,
      scripts: config.ONEDRIVE_PICKER_URL,
      authority: config.ONEDRIVE_AUTHORITY,
    });
  }
  return { providers };
}
