/**
 * Google Drive: google-auth-library's OAuth2Client (the googleapis OAuth client) for the 'Desktop app'
 * flow (PKCE S256 through generateCodeVerifierAsync, offline access for a refresh token, getToken,
 * refreshAccessToken, revokeToken), its endpoints aimed at AV_GOOGLE_* for tests; Drive v3's REST API
 * for browsing.
 */
import { CodeChallengeMethod, OAuth2Client } from 'google-auth-library';
import { CloudAccountError } from '../errors.js';
import type { ProviderSettings } from '../config.js';
import { callJson, providerHttp } from '../http.js';
import type { CloudFolder, CloudItem, ProviderAdapter, TokenSet } from '../types.js';

const NAME = 'Google Drive';
const FOLDER = 'application/vnd.google-apps.folder';
const FIELDS = 'id,name,size,modifiedTime,mimeType';

interface DriveFile {
  id: string;
  name: string;
  size?: string;
  modifiedTime?: string;
  mimeType?: string;
}

function item(f: DriveFile): CloudItem {
  const folder = f.mimeType === FOLDER;
  return {
    provider: 'google-drive',
    id: f.id,
    name: f.name,
    folder,
    size: folder || f.size === undefined ? null : Number(f.size),
    modifiedAt: f.modifiedTime ?? null,
    mimeType: f.mimeType ?? null,
    path: null,
    ref: `drive:${f.id}`,
  };
}

/** Drive's query language quotes with single quotes and escapes them with a backslash. */
const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export function createGoogleDrive(settings: ProviderSettings): ProviderAdapter {
  const http = providerHttp();
  const api = `${settings.apiUrl}/drive/v3`;

  function client(redirectUri?: string): OAuth2Client {
    return new OAuth2Client({
      clientId: settings.clientId!,
      clientSecret: settings.clientSecret ?? undefined,
      redirectUri,
      endpoints: {
        oauth2AuthBaseUrl: settings.authUrl,
        oauth2TokenUrl: settings.tokenUrl,
        ...(settings.revokeUrl ? { oauth2RevokeUrl: settings.revokeUrl } : {}),
      },
    });
  }

  function tokens(credentials: {
    access_token?: string | null;
    refresh_token?: string | null;
    expiry_date?: number | null;
    scope?: string;
  }): TokenSet {
    if (!credentials.access_token)
      throw new CloudAccountError('token_refused', `${NAME} gave no access token.`);
    return {
      accessToken: credentials.access_token,
      expiresAt: credentials.expiry_date ?? null,
      secret: credentials.refresh_token ?? null,
      scopes: credentials.scope ? credentials.scope.split(' ') : settings.scopes,
    };
  }

  async function list(token: string, q: string): Promise<CloudItem[]> {
    const out: CloudItem[] = [];
    let pageToken: string | undefined;
    do {
      const page = await callJson<{ files: DriveFile[]; nextPageToken?: string }>(
        http,
        NAME,
        `${api}/files`,
        {
          token,
          searchParams: {
            q,
            fields: `nextPageToken,files(${FIELDS})`,
            pageSize: 200,
            orderBy: 'folder,name',
            ...(pageToken ? { pageToken } : {}),
          },
        },
      );
      out.push(...page.files.map(item));
      pageToken = page.nextPageToken;
    } while (pageToken && out.length < 5000);
    return out;
  }

  return {
    provider: 'google-drive',

    async begin(redirectUri, state) {
      const oauth = client(redirectUri);
      const { codeVerifier, codeChallenge } = await oauth.generateCodeVerifierAsync();
      const url = oauth.generateAuthUrl({
        access_type: 'offline',
        // Asked every time so that Google hands a refresh token again after a disconnect.
        prompt: 'consent',
        scope: settings.scopes,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: CodeChallengeMethod.S256,
      });
      return {
        url,
        async finish(code) {
          try {
            const { tokens: credentials } = await oauth.getToken({
              code,
              codeVerifier,
              redirect_uri: redirectUri,
            });
            return tokens(credentials);
          } catch (error) {
            if (error instanceof CloudAccountError) throw error;
            throw new CloudAccountError(
              'token_refused',
              `${NAME} refused the sign-in: ${(error as Error).message}`,
            );
          }
        },
      };
    },

    async refresh(secret) {
      const oauth = client();
      oauth.setCredentials({ refresh_token: secret });
      try {
        const { credentials } = await oauth.refreshAccessToken();
        return tokens({ ...credentials, refresh_token: credentials.refresh_token ?? null });
      } catch (error) {
        throw new CloudAccountError(
          'reconnect',
          `${NAME} no longer accepts this sign-in: connect it again. (${(error as Error).message})`,
        );
      }
    },

    async revoke(secret) {
      // Revoking the refresh token ends the whole grant, access tokens included.
      await client().revokeToken(secret);
      return true;
    },

    async whoami(token) {
      const about = await callJson<{ user?: { emailAddress?: string; displayName?: string } }>(
        http,
        NAME,
        `${api}/about`,
        { token, searchParams: { fields: 'user(emailAddress,displayName)' } },
      );
      return { email: about.user?.emailAddress ?? null, name: about.user?.displayName ?? null };
    },

    async list(token, folderId): Promise<CloudFolder> {
      const id = folderId ?? 'root';
      return { id: folderId, items: await list(token, `${quote(id)} in parents and trashed = false`) };
    },

    search(token, query) {
      return list(token, `name contains ${quote(query)} and trashed = false`);
    },

    async resolve(token, id) {
      const file = await callJson<DriveFile>(http, NAME, `${api}/files/${encodeURIComponent(id)}`, {
        token,
        what: `file with id ${id}`,
        searchParams: { fields: FIELDS },
      });
      return item(file);
    },
  };
}
