import type { CloudPickerConfig } from '@avp/shared';
import { loadAsset, ProviderUnreachable } from './load';
import { PickerError, type CloudPicker, type PickedCloudFile } from './types';

/**
 * Google Drive: Google Identity Services signs the user in for the drive.file scope (the app sees only
 * the files the user picks), then the Google Picker lists their Drive. The token goes to our server
 * with each picked file, which reads the file with it.
 */

interface TokenResponse {
  access_token?: string;
  expires_in?: number;
  error?: string;
  error_description?: string;
}
interface PickerDoc {
  id: string;
  name: string;
  mimeType?: string;
  sizeBytes?: number | string;
}
interface PickerData {
  action: string;
  docs?: PickerDoc[];
}
interface GoogleApis {
  accounts: {
    oauth2: {
      initTokenClient(options: {
        client_id: string;
        scope: string;
        callback: (response: TokenResponse) => void;
        error_callback?: (error: { type: string; message?: string }) => void;
      }): { requestAccessToken(options?: { prompt?: string }): void };
    };
  };
  picker: {
    Action: { PICKED: string; CANCEL: string };
    Feature: { MULTISELECT_ENABLED: string; SUPPORT_DRIVES: string };
    ViewId: { DOCS: string };
    DocsView: new (viewId?: string) => {
      setIncludeFolders(v: boolean): unknown;
      setSelectFolderEnabled(v: boolean): unknown;
    };
    PickerBuilder: new () => PickerBuilder;
  };
}
interface PickerBuilder {
  setOAuthToken(token: string): PickerBuilder;
  setDeveloperKey(key: string): PickerBuilder;
  setAppId(id: string): PickerBuilder;
  addView(view: unknown): PickerBuilder;
  enableFeature(feature: string): PickerBuilder;
  setCallback(callback: (data: PickerData) => void): PickerBuilder;
  build(): { setVisible(visible: boolean): void };
}
declare global {
  interface Window {
    google?: GoogleApis;
    gapi?: { load(name: string, options: { callback: () => void; onerror?: () => void }): void };
  }
}

export const DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive.file';

let cached: { token: string; until: number } | null = null;

export function preloadGoogle(config: CloudPickerConfig): Promise<void> {
  return Promise.all(config.scripts.map((url) => loadAsset(url))).then(() => undefined);
}

/** A token for the drive.file scope: the one from before while it lasts, else from a consent popup. */
function accessToken(google: GoogleApis, clientId: string): Promise<string | null> {
  if (cached && cached.until > Date.now() + 60_000) return Promise.resolve(cached.token);
  return new Promise((resolve, reject) => {
    const client = google.accounts.oauth2.initTokenClient({
      client_id: clientId,
      scope: DRIVE_SCOPE,
      callback: (response) => {
        if (!response.access_token) {
          // The user declining consent is a choice, not a failure.
          if (response.error === 'access_denied') resolve(null);
          else reject(new PickerError(response.error_description ?? response.error ?? 'No token'));
          return;
        }
        cached = { token: response.access_token, until: Date.now() + (response.expires_in ?? 3600) * 1000 };
        resolve(response.access_token);
      },
      error_callback: (error) => {
        if (error.type === 'popup_closed') resolve(null);
        else reject(new PickerError(error.message ?? error.type));
      },
    });
    client.requestAccessToken({ prompt: '' });
  });
}

export const pickFromGoogleDrive: CloudPicker = async (config) => {
  await preloadGoogle(config);
  const { google, gapi } = window;
  if (!google?.accounts?.oauth2 || !gapi) throw new ProviderUnreachable('Google’s scripts did not load');
  const token = await accessToken(google, config.clientId);
  if (token === null) return null;
  await new Promise<void>((resolve, reject) =>
    gapi.load('picker', {
      callback: resolve,
      onerror: () => reject(new ProviderUnreachable('Picker did not load')),
    }),
  );
  const { picker } = google;
  return new Promise<PickedCloudFile[] | null>((resolve) => {
    const view = new picker.DocsView(picker.ViewId.DOCS);
    view.setIncludeFolders(true);
    view.setSelectFolderEnabled(false);
    let builder = new picker.PickerBuilder()
      .setOAuthToken(token)
      .setDeveloperKey(config.apiKey ?? '')
      .addView(view)
      .enableFeature(picker.Feature.MULTISELECT_ENABLED)
      .enableFeature(picker.Feature.SUPPORT_DRIVES)
      .setCallback((data) => {
        if (data.action === picker.Action.PICKED) {
          resolve(
            (data.docs ?? []).map((doc) => ({
              provider: 'google-drive' as const,
              fileId: doc.id,
              name: doc.name,
              ...(doc.sizeBytes !== undefined ? { size: Number(doc.sizeBytes) } : {}),
              ...(doc.mimeType ? { mimeType: doc.mimeType } : {}),
              accessToken: token,
            })),
          );
        } else if (data.action === picker.Action.CANCEL) {
          resolve(null);
        }
      });
    if (config.appId) builder = builder.setAppId(config.appId);
    builder.build().setVisible(true);
  });
};
