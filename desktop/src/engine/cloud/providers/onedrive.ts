/**
 * OneDrive: @azure/msal-node's PublicClientApplication (an Entra app registered with the 'Mobile and
 * desktop applications' platform and http://localhost) with our own loopback: getAuthCodeUrl with PKCE
 * S256 codes from msal's CryptoProvider, then acquireTokenByCode. msal keeps the refresh token in its
 * token cache and never hands it out, so the account's kept secret is that serialized cache; a refresh
 * loads it into a fresh client and asks acquireTokenSilent. Microsoft offers no revocation of a single
 * refresh token to a public client: disconnecting forgets it (the user can remove the app's access at
 * https://account.live.com/consent/Manage or myapps.microsoft.com). Microsoft Graph for browsing.
 */
import { randomUUID } from 'node:crypto';
import { CryptoProvider, PublicClientApplication } from '@azure/msal-node';
import type { AuthenticationResult } from '@azure/msal-node';
import type { ProviderSettings } from '../config.js';
import { CloudAccountError } from '../errors.js';
import { callJson, providerHttp } from '../http.js';
import type { CloudItem, ProviderAdapter, TokenSet } from '../types.js';

const NAME = 'OneDrive';
const SELECT = 'id,name,size,lastModifiedDateTime,folder,file,parentReference';

interface DriveItem {
  id: string;
  name: string;
  size?: number;
  lastModifiedDateTime?: string;
  folder?: unknown;
  file?: { mimeType?: string };
  parentReference?: { driveId?: string; path?: string };
}

/**
 * A Graph item as the browse panel shows it: `id` is Graph's item id as it is and `driveId` the drive it
 * is in, kept apart because both may contain '!' (a personal item id is `D4648F06C91D9D3D!54927`, a
 * business drive id `b!…`), so no joined form could be split again reliably (docs/api.md 'OneDrive ids').
 */
function item(i: DriveItem, driveId: string | null): CloudItem {
  const folder = Boolean(i.folder);
  const drive = i.parentReference?.driveId ?? driveId;
  return {
    provider: 'onedrive',
    id: i.id,
    ...(drive ? { driveId: drive } : {}),
    name: i.name,
    folder,
    size: folder ? null : (i.size ?? null),
    modifiedAt: i.lastModifiedDateTime ?? null,
    mimeType: i.file?.mimeType ?? null,
    path: i.parentReference?.path
      ? `${i.parentReference.path.replace(/^\/drive\/root:?/, '')}/${i.name}`
      : null,
    ref: `onedrive:${i.id}`,
  };
}

export function createOneDrive(settings: ProviderSettings): ProviderAdapter {
  const http = providerHttp();
  const graph = settings.apiUrl;
  const authority = settings.authority!;

  function app(): PublicClientApplication {
    return new PublicClientApplication({
      auth: {
        clientId: settings.clientId!,
        authority,
        // An authority other than Microsoft's clouds (a stand-in, a sovereign cloud): trust it as given.
        knownAuthorities: [new URL(authority).host],
      },
    });
  }

  async function toTokens(
    client: PublicClientApplication,
    result: AuthenticationResult | null,
  ): Promise<TokenSet> {
    if (!result?.accessToken) throw new CloudAccountError('token_refused', `${NAME} gave no access token.`);
    return {
      accessToken: result.accessToken,
      expiresAt: result.expiresOn ? result.expiresOn.getTime() : null,
      secret: client.getTokenCache().serialize(),
      scopes: result.scopes,
    };
  }

  const get = <T>(path: string, token: string, searchParams?: Record<string, string>, what?: string) =>
    callJson<T>(http, NAME, `${graph}${path}`, { token, searchParams, what });

  async function driveId(token: string): Promise<string | null> {
    const drive = await get<{ id?: string }>('/me/drive', token, { $select: 'id' });
    return drive.id ?? null;
  }

  async function page(token: string, path: string, query: Record<string, string>, drive: string | null) {
    const items: CloudItem[] = [];
    let next: string | undefined = `${graph}${path}?${new URLSearchParams(query)}`;
    while (next && items.length < 10_000) {
      const body: { value: DriveItem[]; '@odata.nextLink'?: string } = await callJson(http, NAME, next, {
        token,
        what: 'such folder',
      });
      items.push(...body.value.map((i) => item(i, drive)));
      next = body['@odata.nextLink'];
    }
    return items;
  }

  return {
    provider: 'onedrive',

    async begin(redirectUri, state) {
      const client = app();
      const { verifier, challenge } = await new CryptoProvider().generatePkceCodes();
      const nonce = randomUUID();
      const url = await client.getAuthCodeUrl({
        scopes: settings.scopes,
        redirectUri,
        state,
        nonce,
        codeChallenge: challenge,
        codeChallengeMethod: 'S256',
        prompt: 'select_account',
      });
      return {
        url,
        async finish(code) {
          try {
            const result = await client.acquireTokenByCode({
              code,
              scopes: settings.scopes,
              redirectUri,
              codeVerifier: verifier,
              nonce,
            });
            return await toTokens(client, result);
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
      const client = app();
      client.getTokenCache().deserialize(secret);
      const [account] = await client.getAllAccounts();
      if (!account)
        throw new CloudAccountError('reconnect', `${NAME} is not signed in any more: connect it again.`);
      try {
        const result = await client.acquireTokenSilent({
          account,
          scopes: settings.scopes,
          forceRefresh: true,
        });
        return await toTokens(client, result);
      } catch (error) {
        throw new CloudAccountError(
          'reconnect',
          `${NAME} no longer accepts this sign-in: connect it again. (${(error as Error).message})`,
        );
      }
    },

    async revoke() {
      return false;
    },

    async whoami(token) {
      const me = await get<{ mail?: string | null; userPrincipalName?: string; displayName?: string }>(
        '/me',
        token,
        {
          $select: 'mail,userPrincipalName,displayName',
        },
      );
      return { email: me.mail ?? me.userPrincipalName ?? null, name: me.displayName ?? null };
    },

    async list(token, folderId) {
      const drive = await driveId(token);
      const path = folderId
        ? `/me/drive/items/${encodeURIComponent(folderId)}/children`
        : '/me/drive/root/children';
      return { id: folderId, items: await page(token, path, { $select: SELECT, $top: '200' }, drive) };
    },

    async search(token, query) {
      const drive = await driveId(token);
      const escaped = query.replace(/'/g, "''");
      return page(
        token,
        `/me/drive/root/search(q='${encodeURIComponent(escaped)}')`,
        { $select: SELECT },
        drive,
      );
    },

    async resolve(token, id) {
      const lookup = (graphId: string) =>
        get<DriveItem>(
          `/me/drive/items/${encodeURIComponent(graphId)}`,
          token,
          { $select: SELECT },
          `item with id ${id}`,
        );
      const drive = await driveId(token);
      let found: DriveItem;
      try {
        found = await lookup(id);
      } catch (error) {
        // A ref printed by an older version, '<drive id>!<item id>': only the account's own drive id is
        // taken off the front (never a split at some '!', which item ids contain themselves).
        const legacy = drive !== null && id.toLowerCase().startsWith(`${drive.toLowerCase()}!`);
        if (!(error instanceof CloudAccountError && error.code === 'not_found') || !legacy) throw error;
        found = await lookup(id.slice(drive.length + 1));
      }
      return item(found, drive);
    },
  };
}
