import type { CloudPickerConfig } from '@avp/shared';
import { apiRequest } from '../../../../lib/api';
import { CLOUD_CALLBACK_MESSAGE, type CloudCallbackMessage } from '../CloudCallbackPage';
import { openPickerDialog } from './dialog';
import { loadAsset, ProviderUnreachable } from './load';
import { PickerError, type CloudPicker, type PickedCloudFile } from './types';

/**
 * Box Content Picker. Box gives a browser token only for a sign-in code exchanged with the app's secret,
 * so the user signs in to Box in a popup (OAuth 2.0 code flow back to /client/cloud-callback), our server
 * exchanges the code (POST /api/uploads/cloud/box/token), and the picker opens in a modal dialog
 * (./dialog.ts).
 */

interface BoxItem {
  id: string | number;
  name: string;
  size?: number;
  type?: string;
}
interface ContentPicker {
  show(folderId: string, token: string, options: Record<string, unknown>): void;
  addListener(event: 'choose', listener: (items: BoxItem[]) => void): void;
  addListener(event: 'cancel', listener: () => void): void;
  hide?(): void;
}
declare global {
  interface Window {
    Box?: { ContentPicker: new () => ContentPicker };
  }
}

let cached: { token: string; until: number } | null = null;

export function preloadBox(config: CloudPickerConfig): Promise<void> {
  return Promise.all(config.scripts.map((url) => loadAsset(url))).then(() => undefined);
}

/** A Box sign-in in a popup: the code it returns, or null when the user closed it. */
function signIn(config: CloudPickerConfig): Promise<string | null> {
  const state = crypto.randomUUID();
  const redirect = `${window.location.origin}/client/cloud-callback`;
  const url = new URL(config.authorizeUrl ?? 'https://account.box.com/api/oauth2/authorize');
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: redirect,
    state,
  }).toString();
  const popup = window.open(url.href, 'box-sign-in', 'popup,width=600,height=720');
  if (!popup) return Promise.reject(new PickerError('The sign-in window was blocked'));
  return new Promise((resolve, reject) => {
    const done = () => {
      window.removeEventListener('message', onMessage);
      clearInterval(watch);
    };
    const onMessage = (event: MessageEvent<CloudCallbackMessage>) => {
      if (event.origin !== window.location.origin || event.data?.type !== CLOUD_CALLBACK_MESSAGE) return;
      if (event.data.state !== state) return;
      done();
      if (event.data.code) resolve(event.data.code);
      else if (event.data.error === 'access_denied') resolve(null);
      else reject(new PickerError(event.data.error ?? 'Box sign-in failed'));
    };
    // Closing the popup without signing in is a cancel.
    const watch = setInterval(() => {
      if (popup.closed) {
        done();
        resolve(null);
      }
    }, 500);
    window.addEventListener('message', onMessage);
  });
}

async function accessToken(config: CloudPickerConfig): Promise<string | null> {
  if (cached && cached.until > Date.now() + 60_000) return cached.token;
  const code = await signIn(config);
  if (code === null) return null;
  const answer = await apiRequest<{ accessToken: string; expiresIn: number }>(
    'POST',
    '/api/uploads/cloud/box/token',
    {
      code,
    },
  ).catch(() => {
    throw new PickerError('Box did not accept the sign-in');
  });
  cached = { token: answer.accessToken, until: Date.now() + answer.expiresIn * 1000 };
  return answer.accessToken;
}

export const pickFromBox: CloudPicker = async (config) => {
  const token = await accessToken(config);
  if (token === null) return null;
  await preloadBox(config);
  const Box = window.Box;
  if (!Box?.ContentPicker) throw new ProviderUnreachable('The Box picker did not load');
  return new Promise<PickedCloudFile[] | null>((resolve) => {
    let settled = false;
    const finish = (files: PickedCloudFile[] | null) => {
      if (settled) return;
      settled = true;
      shown.close();
      resolve(files);
    };
    // A native modal dialog: focus stays inside, Escape and Close cancel.
    const shown = openPickerDialog('Box', () => finish(null));
    const container = shown.body;
    const picker = new Box.ContentPicker();
    picker.addListener('choose', (items) =>
      finish(
        items
          .filter((item) => item.type === undefined || item.type === 'file')
          .map((item) => ({
            provider: 'box' as const,
            fileId: String(item.id),
            name: item.name,
            ...(item.size !== undefined ? { size: item.size } : {}),
            accessToken: token,
          })),
      ),
    );
    picker.addListener('cancel', () => finish(null));
    picker.show('0', token, {
      container,
      type: 'file',
      maxSelectable: 100,
      canUpload: false,
      canSetShareAccess: false,
      canCreateNewFolder: false,
      logoUrl: 'box',
    });
  });
};
