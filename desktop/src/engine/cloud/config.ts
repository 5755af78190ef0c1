/**
 * Which cloud accounts the desktop app and av-upload can connect, and where each provider's sign-in and
 * API live. Every address is an environment variable so tests and staging aim the flows at stand-ins;
 * the defaults are the providers' real endpoints. A provider whose client id is not set is 'not
 * configured' and says which variable to set.
 */
import { CLOUD_PROVIDERS } from '@avp/shared';
import type { CloudProvider } from '@avp/shared';

export type { CloudProvider };
export { CLOUD_PROVIDERS };

export const PROVIDER_NAMES: Record<CloudProvider, string> = {
  'google-drive': 'Google Drive',
  dropbox: 'Dropbox',
  box: 'Box',
  onedrive: 'OneDrive',
};

/** The short names used on the command line and in refs such as `drive:FILE_ID`. */
const ALIASES: Record<string, CloudProvider> = {
  drive: 'google-drive',
  gdrive: 'google-drive',
  google: 'google-drive',
  'google-drive': 'google-drive',
  dropbox: 'dropbox',
  box: 'box',
  onedrive: 'onedrive',
};

export function parseProvider(name: string): CloudProvider | null {
  return ALIASES[name.trim().toLowerCase()] ?? null;
}

/** The prefix a ref to this provider's files is written with (`drive:…`, `dropbox:…`). */
export const REF_PREFIX: Record<CloudProvider, string> = {
  'google-drive': 'drive',
  dropbox: 'dropbox',
  box: 'box',
  onedrive: 'onedrive',
};

export interface ProviderSettings {
  provider: CloudProvider;
  clientId: string | null;
  /** Google's 'Desktop app' clients and Box apps have one; it is not a secret in a desktop app (docs/decisions.md). */
  clientSecret: string | null;
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string | null;
  /** The REST API's base URL (Drive: https://www.googleapis.com; Graph: https://graph.microsoft.com/v1.0). */
  apiUrl: string;
  /** OneDrive only: the Microsoft identity authority msal-node signs in against (https only). */
  authority?: string;
  scopes: string[];
  /** The variable that turns the provider on, for the 'not configured' message. */
  clientIdVariable: string;
}

export type CloudSettings = Record<CloudProvider, ProviderSettings>;

const trim = (url: string) => url.replace(/\/+$/, '');

export function cloudSettings(env: NodeJS.ProcessEnv = process.env): CloudSettings {
  const get = (name: string, fallback: string) => trim(env[name]?.trim() || fallback);
  const id = (name: string) => env[name]?.trim() || null;
  const dropboxApi = get('AV_DROPBOX_API_URL', 'https://api.dropboxapi.com');
  const boxApi = get('AV_BOX_API_URL', 'https://api.box.com');
  return {
    'google-drive': {
      provider: 'google-drive',
      clientId: id('AV_GOOGLE_CLIENT_ID'),
      clientSecret: id('AV_GOOGLE_CLIENT_SECRET'),
      authUrl: get('AV_GOOGLE_AUTH_URL', 'https://accounts.google.com/o/oauth2/v2/auth'),
      tokenUrl: get('AV_GOOGLE_TOKEN_URL', 'https://oauth2.googleapis.com/token'),
      revokeUrl: get('AV_GOOGLE_REVOKE_URL', 'https://oauth2.googleapis.com/revoke'),
      apiUrl: get('AV_GOOGLE_API_URL', 'https://www.googleapis.com'),
      // Read-only access to the user's Drive: the browse panel lists folders, the server copies files.
      scopes: ['https://www.googleapis.com/auth/drive.readonly'],
      clientIdVariable: 'AV_GOOGLE_CLIENT_ID',
    },
    dropbox: {
      provider: 'dropbox',
      clientId: id('AV_DROPBOX_APP_KEY'),
      clientSecret: null,
      authUrl: get('AV_DROPBOX_AUTH_URL', 'https://www.dropbox.com/oauth2/authorize'),
      tokenUrl: `${dropboxApi}/oauth2/token`,
      revokeUrl: `${dropboxApi}/2/auth/token/revoke`,
      apiUrl: dropboxApi,
      scopes: ['account_info.read', 'files.metadata.read', 'files.content.read'],
      clientIdVariable: 'AV_DROPBOX_APP_KEY',
    },
    box: {
      provider: 'box',
      clientId: id('AV_BOX_CLIENT_ID'),
      clientSecret: id('AV_BOX_CLIENT_SECRET'),
      authUrl: get('AV_BOX_AUTH_URL', 'https://account.box.com/api/oauth2/authorize'),
      tokenUrl: `${boxApi}/oauth2/token`,
      revokeUrl: `${boxApi}/oauth2/revoke`,
      apiUrl: boxApi,
      scopes: ['root_readonly'],
      clientIdVariable: 'AV_BOX_CLIENT_ID and AV_BOX_CLIENT_SECRET',
    },
    onedrive: {
      provider: 'onedrive',
      clientId: id('AV_ONEDRIVE_CLIENT_ID'),
      clientSecret: null,
      authority: get('AV_ONEDRIVE_AUTHORITY', 'https://login.microsoftonline.com/common'),
      authUrl: '',
      tokenUrl: '',
      revokeUrl: null,
      apiUrl: get('AV_GRAPH_API_URL', 'https://graph.microsoft.com/v1.0'),
      scopes: ['Files.Read.All', 'User.Read'],
      clientIdVariable: 'AV_ONEDRIVE_CLIENT_ID',
    },
  };
}

/** Why a provider cannot be connected here, or null when it can. */
export function notConfigured(settings: ProviderSettings): string | null {
  const name = PROVIDER_NAMES[settings.provider];
  if (!settings.clientId) return `${name} is not configured: set ${settings.clientIdVariable}.`;
  if (settings.provider === 'box' && !settings.clientSecret)
    return `${name} is not configured: set AV_BOX_CLIENT_SECRET too (Box's token exchange needs it).`;
  return null;
}
