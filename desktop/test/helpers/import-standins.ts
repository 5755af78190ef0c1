/**
 * The cloud-provider stand-ins of the API's own tests (api/test/helpers/cloud-standins), which the real
 * API is aimed at to copy files: loaded by address so that the desktop's type-check stays inside its
 * folder; the part of their shape used here is declared below.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { API_DIR } from './api.js';
import type { AuthStandIn } from './cloud-auth.js';

export interface DriveStandIn {
  url: string;
  files: Map<string, { name: string; mimeType: string; data: Buffer }>;
  mediaRequests: { id: string; range: string | undefined }[];
  token: string | null;
  expireTokenAfter: number | null;
  delayMs: number;
  close(): Promise<void>;
}

export interface ProvidersStandIn {
  url: string;
  /** Graph files also carry the drive they are in (`driveId`): the server asks for drives/{drive}/items/{id}. */
  files: Map<string, { id: string; name: string; data: Buffer; driveId?: string }>;
  token: string;
  /** After this many byte downloads, Dropbox links issued so far expire (410). */
  expireLinksAfter: number | null;
  /** After this many byte downloads, the APIs stop accepting the token (until `token` is set again). */
  expireTokenAfter: number | null;
  downloads: string[];
  close(): Promise<void>;
}

const load = async <T>(file: string): Promise<T> =>
  (await import(pathToFileURL(path.join(API_DIR, 'test', 'helpers', 'cloud-standins', file)).href)) as T;

export async function startImportStandIns(auth: AuthStandIn): Promise<{
  drive: DriveStandIn;
  providers: ProvidersStandIn;
  /** The API's settings that aim its import sources at the stand-ins. */
  apiEnv: Record<string, string>;
  close(): Promise<void>;
}> {
  const { startDriveStandIn } = await load<{ startDriveStandIn(): Promise<DriveStandIn> }>('drive.ts');
  const { startProvidersStandIn, providersEnv } = await load<{
    startProvidersStandIn(): Promise<ProvidersStandIn>;
    providersEnv(s: { url: string }): Record<string, string>;
  }>('providers.ts');
  const drive = await startDriveStandIn();
  const providers = await startProvidersStandIn();
  // What the account's sign-in issues is what the providers accept from the server.
  auth.onToken = (provider, token) => {
    if (provider === 'google-drive') drive.token = token;
    else providers.token = token;
  };
  return {
    drive,
    providers,
    apiEnv: { GOOGLE_API_URL: drive.url, ...providersEnv(providers) },
    async close() {
      await drive.close();
      await providers.close();
    },
  };
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
