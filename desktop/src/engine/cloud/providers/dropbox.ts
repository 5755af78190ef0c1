/**
 * Dropbox: the `dropbox` SDK's DropboxAuth for the PKCE code flow with an offline (refresh) token, its
 * requests sent to AV_DROPBOX_API_URL instead of api.dropboxapi.com; the API v2 (list_folder, search_v2,
 * get_metadata, get_current_account, auth/token/revoke) for the rest. Dropbox apps need no secret with PKCE.
 */
import { DropboxAuth } from 'dropbox';
import type { ProviderSettings } from '../config.js';
import { CloudAccountError } from '../errors.js';
import { callJson, providerHttp } from '../http.js';
import type { CloudItem, ProviderAdapter, TokenSet } from '../types.js';

const NAME = 'Dropbox';

interface Metadata {
  '.tag': 'file' | 'folder' | 'deleted';
  id: string;
  name: string;
  path_display?: string;
  size?: number;
  server_modified?: string;
}

function item(m: Metadata): CloudItem {
  const folder = m['.tag'] === 'folder';
  return {
    provider: 'dropbox',
    id: m.id,
    name: m.name,
    folder,
    size: folder ? null : (m.size ?? null),
    modifiedAt: m.server_modified ?? null,
    mimeType: null,
    path: m.path_display ?? null,
    ref: `dropbox:${m.id}`,
  };
}

interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
}

export function createDropbox(settings: ProviderSettings): ProviderAdapter {
  const http = providerHttp();
  const api = settings.apiUrl;

  /** The SDK knows only Dropbox's own hosts; its calls are aimed at the configured API base URL. */
  const sdkFetch = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    return fetch(`${api}${url.pathname}${url.search}`, init);
  };
  const auth = (extra: { refreshToken?: string } = {}) =>
    new DropboxAuth({ clientId: settings.clientId!, fetch: sdkFetch, ...extra });

  const rpc = <T>(path: string, token: string, body: unknown, what?: string) =>
    callJson<T>(http, NAME, `${api}/2/${path}`, {
      method: 'POST',
      token,
      what,
      // get_current_account and revoke take no argument: Dropbox wants the JSON 'null' for that.
      body: JSON.stringify(body ?? null),
      headers: { 'content-type': 'application/json' },
    });

  const toTokens = (answer: TokenAnswer): TokenSet => ({
    accessToken: answer.access_token,
    expiresAt: answer.expires_in ? Date.now() + answer.expires_in * 1000 : null,
    secret: answer.refresh_token ?? null,
    scopes: answer.scope ? answer.scope.split(' ') : settings.scopes,
  });

  return {
    provider: 'dropbox',

    async begin(redirectUri, state) {
      const flow = auth();
      const sdkUrl = new URL(
        await flow.getAuthenticationUrl(redirectUri, state, 'code', 'offline', settings.scopes, 'none', true),
      );
      const url = new URL(settings.authUrl);
      for (const [k, v] of sdkUrl.searchParams) url.searchParams.set(k, v);
      return {
        url: url.toString(),
        async finish(code) {
          try {
            const { result } = await flow.getAccessTokenFromCode(redirectUri, code);
            return toTokens(result as TokenAnswer);
          } catch (error) {
            throw new CloudAccountError('token_refused', `${NAME} refused the sign-in: ${describe(error)}`);
          }
        },
      };
    },

    async refresh(secret) {
      const flow = auth({ refreshToken: secret });
      try {
        await flow.refreshAccessToken();
      } catch (error) {
        throw new CloudAccountError(
          'reconnect',
          `${NAME} no longer accepts this sign-in: connect it again. (${describe(error)})`,
        );
      }
      const expires = flow.getAccessTokenExpiresAt() as Date | undefined;
      return {
        accessToken: flow.getAccessToken(),
        expiresAt: expires ? expires.getTime() : null,
        secret: null,
        scopes: settings.scopes,
      };
    },

    async revoke(_secret, accessToken) {
      // Revoking an access token disables its refresh token too (Dropbox's auth/token/revoke).
      if (!accessToken) return false;
      await rpc('auth/token/revoke', accessToken, null);
      return true;
    },

    async whoami(token) {
      const account = await rpc<{ email?: string; name?: { display_name?: string } }>(
        'users/get_current_account',
        token,
        null,
      );
      return { email: account.email ?? null, name: account.name?.display_name ?? null };
    },

    async list(token, folderId) {
      const items: CloudItem[] = [];
      let page = await rpc<{ entries: Metadata[]; cursor: string; has_more: boolean }>(
        'files/list_folder',
        token,
        { path: folderId ?? '', limit: 2000 },
        'such folder',
      );
      items.push(...page.entries.filter((e) => e['.tag'] !== 'deleted').map(item));
      while (page.has_more && items.length < 10_000) {
        page = await rpc('files/list_folder/continue', token, { cursor: page.cursor });
        items.push(...page.entries.filter((e) => e['.tag'] !== 'deleted').map(item));
      }
      return { id: folderId, items };
    },

    async search(token, query) {
      const found = await rpc<{ matches: { metadata: { metadata: Metadata } }[] }>('files/search_v2', token, {
        query,
        options: { max_results: 200 },
      });
      return found.matches.map((m) => item(m.metadata.metadata));
    },

    async resolve(token, idOrPath) {
      return item(await rpc<Metadata>('files/get_metadata', token, { path: idOrPath }, `file ${idOrPath}`));
    },
  };
}

function describe(error: unknown): string {
  const e = error as { error?: { error_description?: string; error?: string }; message?: string };
  return e.error?.error_description ?? e.error?.error ?? e.message ?? String(error);
}
