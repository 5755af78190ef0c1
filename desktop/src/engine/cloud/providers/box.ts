/**
 * Box: OAuth 2.0's code flow with PKCE S256 against AV_BOX_AUTH_URL, the code exchanged (and the token
 * refreshed and revoked) at Box's /oauth2 endpoints with the desktop app's client id and secret: Box has
 * no public-client flow, so the secret ships with the app (docs/decisions.md says why that is acceptable).
 * Box's refresh tokens are single use: each refresh hands back the next one. The API 2.0 for the rest.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ProviderSettings } from '../config.js';
import { CloudAccountError } from '../errors.js';
import { callJson, providerHttp, tokenRequest } from '../http.js';
import type { CloudItem, ProviderAdapter, TokenSet } from '../types.js';

const NAME = 'Box';
const FIELDS = 'id,type,name,size,modified_at';

interface BoxEntry {
  type: 'file' | 'folder' | 'web_link';
  id: string;
  name: string;
  size?: number;
  modified_at?: string;
}

function item(e: BoxEntry): CloudItem {
  const folder = e.type === 'folder';
  return {
    provider: 'box',
    id: e.id,
    name: e.name,
    folder,
    size: folder ? null : (e.size ?? null),
    modifiedAt: e.modified_at ?? null,
    mimeType: null,
    path: null,
    ref: `box:${e.id}`,
  };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function createBox(settings: ProviderSettings): ProviderAdapter {
  const http = providerHttp();
  const api = `${settings.apiUrl}/2.0`;
  const client = { client_id: settings.clientId!, client_secret: settings.clientSecret ?? '' };

  const toTokens = (answer: Record<string, unknown>): TokenSet => ({
    accessToken: String(answer.access_token),
    expiresAt: typeof answer.expires_in === 'number' ? Date.now() + answer.expires_in * 1000 : null,
    secret: typeof answer.refresh_token === 'string' ? answer.refresh_token : null,
    scopes: settings.scopes,
  });

  return {
    provider: 'box',

    async begin(redirectUri, state) {
      const { verifier, challenge } = pkcePair();
      const url = new URL(settings.authUrl);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: settings.clientId!,
        redirect_uri: redirectUri,
        state,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }).toString();
      return {
        url: url.toString(),
        finish: async (code) =>
          toTokens(
            await tokenRequest(http, NAME, settings.tokenUrl, {
              grant_type: 'authorization_code',
              code,
              redirect_uri: redirectUri,
              code_verifier: verifier,
              ...client,
            }),
          ),
      };
    },

    async refresh(secret) {
      try {
        return toTokens(
          await tokenRequest(http, NAME, settings.tokenUrl, {
            grant_type: 'refresh_token',
            refresh_token: secret,
            ...client,
          }),
        );
      } catch (error) {
        if (error instanceof CloudAccountError && error.code === 'token_refused')
          throw new CloudAccountError(
            'reconnect',
            `${NAME} no longer accepts this sign-in: connect it again.`,
          );
        throw error;
      }
    },

    async revoke(secret) {
      // Revoking the refresh token ends its access tokens too.
      await callJson(http, NAME, settings.revokeUrl!, { method: 'POST', form: { token: secret, ...client } });
      return true;
    },

    async whoami(token) {
      const me = await callJson<{ login?: string; name?: string }>(http, NAME, `${api}/users/me`, {
        token,
        searchParams: { fields: 'login,name' },
      });
      return { email: me.login ?? null, name: me.name ?? null };
    },

    async list(token, folderId) {
      const items: CloudItem[] = [];
      let offset = 0;
      for (;;) {
        const page = await callJson<{ entries: BoxEntry[]; total_count: number }>(
          http,
          NAME,
          `${api}/folders/${encodeURIComponent(folderId ?? '0')}/items`,
          { token, what: 'such folder', searchParams: { fields: FIELDS, limit: 1000, offset } },
        );
        items.push(...page.entries.filter((e) => e.type !== 'web_link').map(item));
        offset += page.entries.length;
        if (page.entries.length === 0 || offset >= page.total_count || offset >= 10_000) break;
      }
      return { id: folderId, items };
    },

    async search(token, query) {
      const found = await callJson<{ entries: BoxEntry[] }>(http, NAME, `${api}/search`, {
        token,
        searchParams: { query, fields: FIELDS, limit: 200 },
      });
      return found.entries.filter((e) => e.type !== 'web_link').map(item);
    },

    async resolve(token, id) {
      return item(
        await callJson<BoxEntry>(http, NAME, `${api}/files/${encodeURIComponent(id)}`, {
          token,
          what: `file with id ${id}`,
          searchParams: { fields: FIELDS },
        }),
      );
    },
  };
}
