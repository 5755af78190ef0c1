/**
 * The four providers' authorization servers and browse APIs at the network boundary, on one local server
 * (plus an HTTPS one for the Microsoft identity authority, which msal-node insists on):
 *
 *   Google   /google/authorize, /google/token, /google/revoke; Drive v3 under /google/drive/v3
 *   Dropbox  /dropbox/authorize, /dropbox/oauth2/token (the SDK's query-string form); API v2 under /dropbox/2
 *   Box      /box/authorize, /box/oauth2/token, /box/oauth2/revoke; API 2.0 under /box/2.0
 *   Microsoft (https) /common/v2.0/.well-known/openid-configuration, /common/oauth2/v2.0/{authorize,token};
 *            Graph under /graph/v1.0
 *
 * The authorize endpoints answer as a consenting user would, with a 302 back to the loopback redirect (the
 * test 'visits' the address the app opened, as the system browser would); `deny` makes the next one
 * answer error=access_denied and `wrongState` sends another state back. The token endpoints check the
 * client, the redirect and the PKCE verifier against the challenge; refresh tokens rotate for Box (single
 * use, like Box's); `expire(provider)` makes every access token issued so far refused (a 401), as an
 * expired one is.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rootCertificates, setDefaultCACertificates } from 'node:tls';
import { generate } from 'selfsigned';
import type { CloudProvider } from '@avp/shared';

export interface StandInItem {
  id: string;
  name: string;
  /** The parent folder's id; null: the root. */
  parent: string | null;
  folder: boolean;
  size?: number;
  modified?: string;
}

export interface AuthStandIn {
  url: string;
  /** The Microsoft authority (https, a certificate made for this run). */
  authority: string;
  /** The certificate's PEM, for a child process's NODE_EXTRA_CA_CERTS. */
  caFile: string | null;
  ca: string;
  items: Record<CloudProvider, StandInItem[]>;
  /** The OneDrive's drive id, as /me/drive and each item's parentReference.driveId give it. */
  oneDriveId: string;
  deny: boolean;
  wrongState: boolean;
  /** Seconds an access token is said to last. */
  accessTtl: number;
  refreshes: Record<CloudProvider, number>;
  revoked: string[];
  /** Every authorization request: its provider and query. */
  authorizeRequests: { provider: CloudProvider; query: Record<string, string> }[];
  /** Called with each access token issued (to make the import stand-ins accept it). */
  onToken: (provider: CloudProvider, token: string) => void;
  /** Refuses every access token of the provider issued so far. */
  expire(provider: CloudProvider): void;
  /** Refuses the refresh tokens of the provider issued so far (the user removed the app's access). */
  revokeAll(provider: CloudProvider): void;
  /** The environment that aims the desktop's flows here. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

export const CLIENTS = {
  google: { id: 'google-desktop-client', secret: 'google-desktop-not-secret' },
  dropbox: { id: 'dropbox-app-key' },
  box: { id: 'box-desktop-client', secret: 'box-desktop-secret' },
  onedrive: { id: '00000000-0000-0000-0000-00000000beef' },
};

const USERS: Record<CloudProvider, { email: string; name: string }> = {
  'google-drive': { email: 'ada@gmail.example', name: 'Ada Drive' },
  dropbox: { email: 'ada@dropbox.example', name: 'Ada Dropbox' },
  box: { email: 'ada@box.example', name: 'Ada Box' },
  onedrive: { email: 'ada@outlook.example', name: 'Ada OneDrive' },
};

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

export async function startAuthStandIn(): Promise<AuthStandIn> {
  const codes = new Map<
    string,
    { provider: CloudProvider; challenge: string; redirectUri: string; nonce?: string }
  >();
  const access = new Map<string, { provider: CloudProvider; valid: boolean }>();
  const refresh = new Map<string, { provider: CloudProvider; valid: boolean }>();
  let counter = 0;
  let base = '';
  let authority = '';

  const state = {
    items: { 'google-drive': [], dropbox: [], box: [], onedrive: [] } as Record<CloudProvider, StandInItem[]>,
    oneDriveId: 'drive-ada',
    deny: false,
    wrongState: false,
    accessTtl: 3600,
    refreshes: { 'google-drive': 0, dropbox: 0, box: 0, onedrive: 0 } as Record<CloudProvider, number>,
    revoked: [] as string[],
    authorizeRequests: [] as { provider: CloudProvider; query: Record<string, string> }[],
    onToken: (() => undefined) as (provider: CloudProvider, token: string) => void,
  };

  const json = (res: ServerResponse, status: number, body: unknown) =>
    void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  function issue(provider: CloudProvider, withRefresh: string | null): Record<string, unknown> {
    counter++;
    const accessToken = `${provider}-access-${counter}-${randomBytes(4).toString('hex')}`;
    access.set(accessToken, { provider, valid: true });
    const refreshToken = withRefresh ?? `${provider}-refresh-${counter}-${randomBytes(4).toString('hex')}`;
    refresh.set(refreshToken, { provider, valid: true });
    state.onToken(provider, accessToken);
    return {
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: state.accessTtl,
      token_type: 'bearer',
    };
  }

  function authorize(provider: CloudProvider, url: URL, res: ServerResponse, clientId: string): void {
    const q = Object.fromEntries(url.searchParams);
    state.authorizeRequests.push({ provider, query: q });
    const redirect = q.redirect_uri ?? '';
    if (q.client_id !== clientId || !/^http:\/\/(127\.0\.0\.1|localhost):\d+\//.test(redirect))
      return json(res, 400, { error: 'invalid_request', error_description: 'unknown client or redirect' });
    if (q.code_challenge_method !== 'S256' || !q.code_challenge)
      return json(res, 400, { error: 'invalid_request', error_description: 'PKCE S256 required' });
    const back = new URL(redirect);
    back.searchParams.set('state', state.wrongState ? 'not-the-state-sent' : (q.state ?? ''));
    if (state.deny) {
      state.deny = false;
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user denied access');
    } else {
      const code = `code-${randomBytes(8).toString('hex')}`;
      codes.set(code, { provider, challenge: q.code_challenge, redirectUri: redirect, nonce: q.nonce });
      back.searchParams.set('code', code);
    }
    state.wrongState = false;
    res.writeHead(302, { location: back.toString() }).end();
  }

  /** The code grant and the refresh grant, shared by the four token endpoints. */
  function token(
    provider: CloudProvider,
    form: URLSearchParams,
    res: ServerResponse,
    extra?: (body: Record<string, unknown>, nonce?: string) => void,
  ) {
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (!code || code.provider !== provider)
        return json(res, 400, { error: 'invalid_grant', error_description: 'unknown code' });
      if (form.get('redirect_uri') !== code.redirectUri)
        return json(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri mismatch' });
      if (s256(form.get('code_verifier') ?? '') !== code.challenge)
        return json(res, 400, {
          error: 'invalid_grant',
          error_description: 'code_verifier does not match the challenge',
        });
      const body = issue(provider, null);
      extra?.(body, code.nonce);
      return json(res, 200, body);
    }
    if (grant === 'refresh_token') {
      const rt = form.get('refresh_token') ?? '';
      const known = refresh.get(rt);
      if (!known?.valid || known.provider !== provider)
        return json(res, 400, {
          error: 'invalid_grant',
          error_description: 'refresh token revoked or unknown',
        });
      state.refreshes[provider]++;
      // Box's refresh tokens are single use; the others keep theirs.
      if (provider === 'box') known.valid = false;
      const body = issue(provider, provider === 'box' ? null : rt);
      if (provider === 'dropbox' || provider === 'google-drive') delete body.refresh_token;
      extra?.(body);
      return json(res, 200, body);
    }
    json(res, 400, { error: 'unsupported_grant_type' });
  }

  const bearer = (req: IncomingMessage, provider: CloudProvider) => {
    const t = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const known = access.get(t);
    return known?.valid && known.provider === provider ? t : null;
  };

  const children = (provider: CloudProvider, parent: string | null) =>
    state.items[provider].filter((i) => i.parent === parent);
  const find = (provider: CloudProvider, id: string) => state.items[provider].find((i) => i.id === id);
  const pathOf = (provider: CloudProvider, item: StandInItem): string =>
    `${item.parent ? pathOf(provider, find(provider, item.parent)!) : ''}/${item.name}`;
  const modified = (i: StandInItem) => i.modified ?? '2027-01-15T10:00:00Z';

  // --- Google
  const driveFile = (i: StandInItem) => ({
    id: i.id,
    name: i.name,
    mimeType: i.folder ? 'application/vnd.google-apps.folder' : 'video/quicktime',
    modifiedTime: modified(i),
    ...(i.folder ? {} : { size: String(i.size ?? 0) }),
  });
  async function google(req: IncomingMessage, res: ServerResponse, url: URL, path: string) {
    if (path === '/google/authorize') return authorize('google-drive', url, res, CLIENTS.google.id);
    if (path === '/google/token') {
      const form = new URLSearchParams(await readBody(req));
      if (form.get('client_id') !== CLIENTS.google.id || form.get('client_secret') !== CLIENTS.google.secret)
        return json(res, 401, { error: 'invalid_client' });
      return token('google-drive', form, res);
    }
    if (path === '/google/revoke') {
      const t = url.searchParams.get('token') ?? new URLSearchParams(await readBody(req)).get('token') ?? '';
      const known = refresh.get(t) ?? access.get(t);
      if (!known) return json(res, 400, { error: 'invalid_token' });
      known.valid = false;
      state.revoked.push(t);
      return json(res, 200, {});
    }
    if (!bearer(req, 'google-drive'))
      return json(res, 401, { error: { code: 401, message: 'Invalid Credentials' } });
    if (path === '/google/drive/v3/about')
      return json(res, 200, {
        user: { emailAddress: USERS['google-drive'].email, displayName: USERS['google-drive'].name },
      });
    if (path === '/google/drive/v3/files') {
      const q = url.searchParams.get('q') ?? '';
      const parent = /^'(.*)' in parents/.exec(q)?.[1];
      const named = /^name contains '(.*)' and/.exec(q)?.[1];
      const list =
        parent !== undefined
          ? children('google-drive', parent === 'root' ? null : parent)
          : state.items['google-drive'].filter((i) => named !== undefined && i.name.includes(named));
      return json(res, 200, { files: list.map(driveFile) });
    }
    const m = /^\/google\/drive\/v3\/files\/([^/]+)$/.exec(path);
    const item = m && find('google-drive', decodeURIComponent(m[1]!));
    if (item) return json(res, 200, driveFile(item));
    return json(res, 404, { error: { code: 404, message: 'File not found' } });
  }

  // --- Dropbox
  const dropboxEntry = (i: StandInItem) => ({
    '.tag': i.folder ? 'folder' : 'file',
    id: i.id,
    name: i.name,
    path_display: pathOf('dropbox', i),
    ...(i.folder ? {} : { size: i.size ?? 0, server_modified: modified(i) }),
  });
  async function dropbox(req: IncomingMessage, res: ServerResponse, url: URL, path: string) {
    if (path === '/dropbox/authorize') {
      if (url.searchParams.get('token_access_type') !== 'offline')
        return json(res, 400, { error: 'offline access expected' });
      return authorize('dropbox', url, res, CLIENTS.dropbox.id);
    }
    if (path === '/dropbox/oauth2/token') {
      // The SDK sends its parameters in the query string.
      const form = new URLSearchParams(url.search);
      for (const [k, v] of new URLSearchParams(await readBody(req))) form.set(k, v);
      if (form.get('client_id') !== CLIENTS.dropbox.id) return json(res, 400, { error: 'invalid_client' });
      return token('dropbox', form, res);
    }
    const t = bearer(req, 'dropbox');
    if (!t)
      return json(res, 401, {
        error_summary: 'expired_access_token/',
        error: { '.tag': 'expired_access_token' },
      });
    const body = JSON.parse((await readBody(req)) || 'null') as Record<string, string> | null;
    if (path === '/dropbox/2/auth/token/revoke') {
      for (const [k, v] of [...access, ...refresh])
        if (v.provider === 'dropbox') {
          v.valid = false;
          state.revoked.push(k);
        }
      return json(res, 200, null);
    }
    if (path === '/dropbox/2/users/get_current_account')
      return json(res, 200, {
        account_id: 'dbid:ada',
        email: USERS.dropbox.email,
        name: { display_name: USERS.dropbox.name },
      });
    const byPath = (p: string) =>
      p === ''
        ? null
        : state.items.dropbox.find(
            (i) => i.id === p || pathOf('dropbox', i).toLowerCase() === p.toLowerCase(),
          );
    if (path === '/dropbox/2/files/list_folder') {
      const folder = byPath(body?.path ?? '');
      if (body?.path && !folder) return json(res, 409, { error_summary: 'path/not_found/' });
      return json(res, 200, {
        entries: children('dropbox', folder?.id ?? null).map(dropboxEntry),
        cursor: 'c',
        has_more: false,
      });
    }
    if (path === '/dropbox/2/files/search_v2') {
      const found = state.items.dropbox.filter((i) =>
        i.name.toLowerCase().includes((body?.query ?? '').toLowerCase()),
      );
      return json(res, 200, {
        matches: found.map((i) => ({ metadata: { '.tag': 'metadata', metadata: dropboxEntry(i) } })),
        has_more: false,
      });
    }
    if (path === '/dropbox/2/files/get_metadata') {
      const item = byPath(body?.path ?? '');
      return item ? json(res, 200, dropboxEntry(item)) : json(res, 409, { error_summary: 'path/not_found/' });
    }
    return json(res, 404, { error: 'no such route' });
  }

  // --- Box
  const boxEntry = (i: StandInItem) => ({
    type: i.folder ? 'folder' : 'file',
    id: i.id,
    name: i.name,
    modified_at: modified(i),
    ...(i.folder ? {} : { size: i.size ?? 0 }),
  });
  async function box(req: IncomingMessage, res: ServerResponse, url: URL, path: string) {
    if (path === '/box/authorize') return authorize('box', url, res, CLIENTS.box.id);
    if (path === '/box/oauth2/token' || path === '/box/oauth2/revoke') {
      const form = new URLSearchParams(await readBody(req));
      if (form.get('client_id') !== CLIENTS.box.id || form.get('client_secret') !== CLIENTS.box.secret)
        return json(res, 400, { error: 'invalid_client' });
      if (path === '/box/oauth2/token') return token('box', form, res);
      const t = form.get('token') ?? '';
      for (const [k, v] of [...access, ...refresh])
        if (v.provider === 'box' && (k === t || refresh.has(t))) {
          v.valid = false;
          state.revoked.push(k);
        }
      return json(res, 200, {});
    }
    if (!bearer(req, 'box')) return json(res, 401, { type: 'error', status: 401, code: 'unauthorized' });
    if (path === '/box/2.0/users/me') return json(res, 200, { login: USERS.box.email, name: USERS.box.name });
    let m = /^\/box\/2\.0\/folders\/([^/]+)\/items$/.exec(path);
    if (m) {
      const id = decodeURIComponent(m[1]!);
      const list = children('box', id === '0' ? null : id);
      return json(res, 200, { entries: list.map(boxEntry), total_count: list.length });
    }
    if (path === '/box/2.0/search') {
      const q = url.searchParams.get('query') ?? '';
      return json(res, 200, { entries: state.items.box.filter((i) => i.name.includes(q)).map(boxEntry) });
    }
    m = /^\/box\/2\.0\/files\/([^/]+)$/.exec(path);
    const item = m && find('box', decodeURIComponent(m[1]!));
    return item && !item.folder
      ? json(res, 200, boxEntry(item))
      : json(res, 404, { type: 'error', status: 404, code: 'not_found' });
  }

  // --- Microsoft Graph
  const graphItem = (i: StandInItem) => ({
    id: i.id,
    name: i.name,
    lastModifiedDateTime: modified(i),
    parentReference: {
      driveId: state.oneDriveId,
      path: `/drive/root:${i.parent ? pathOf('onedrive', find('onedrive', i.parent)!) : ''}`,
    },
    ...(i.folder
      ? { folder: { childCount: children('onedrive', i.id).length } }
      : { size: i.size ?? 0, file: { mimeType: 'video/mp4' } }),
  });
  function graph(req: IncomingMessage, res: ServerResponse, _url: URL, path: string) {
    if (!bearer(req, 'onedrive'))
      return json(res, 401, { error: { code: 'InvalidAuthenticationToken', message: 'expired' } });
    const p = path.replace(/^\/graph\/v1\.0/, '');
    if (p === '/me')
      return json(res, 200, {
        mail: USERS.onedrive.email,
        userPrincipalName: USERS.onedrive.email,
        displayName: USERS.onedrive.name,
      });
    if (p === '/me/drive') return json(res, 200, { id: state.oneDriveId });
    if (p === '/me/drive/root/children')
      return json(res, 200, { value: children('onedrive', null).map(graphItem) });
    const search = /^\/me\/drive\/root\/search\(q='(.*)'\)$/.exec(decodeURIComponent(p));
    if (search)
      return json(res, 200, {
        value: state.items.onedrive.filter((i) => i.name.includes(search[1]!)).map(graphItem),
      });
    const m = /^\/me\/drive\/items\/([^/]+?)(\/children)?$/.exec(p);
    const item = m && find('onedrive', decodeURIComponent(m[1]!));
    if (!item) return json(res, 404, { error: { code: 'itemNotFound', message: 'not found' } });
    return json(res, 200, m[2] ? { value: children('onedrive', item.id).map(graphItem) } : graphItem(item));
  }

  // --- The Microsoft identity authority (https)
  async function microsoft(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', authority);
    const tenant = url.pathname.split('/')[1] ?? 'common';
    const root = new URL(authority).origin;
    if (url.pathname.endsWith('/v2.0/.well-known/openid-configuration')) {
      return json(res, 200, {
        token_endpoint: `${root}/${tenant}/oauth2/v2.0/token`,
        authorization_endpoint: `${root}/${tenant}/oauth2/v2.0/authorize`,
        end_session_endpoint: `${root}/${tenant}/oauth2/v2.0/logout`,
        issuer: `${root}/{tenantid}/v2.0`,
        jwks_uri: `${root}/${tenant}/discovery/v2.0/keys`,
        response_modes_supported: ['query', 'fragment', 'form_post'],
        token_endpoint_auth_methods_supported: [
          'client_secret_post',
          'private_key_jwt',
          'client_secret_basic',
        ],
      });
    }
    if (url.pathname.endsWith('/oauth2/v2.0/authorize'))
      return authorize('onedrive', url, res, CLIENTS.onedrive.id);
    if (url.pathname.endsWith('/oauth2/v2.0/token')) {
      const form = new URLSearchParams(await readBody(req));
      if (form.get('client_id') !== CLIENTS.onedrive.id) return json(res, 400, { error: 'invalid_client' });
      return token('onedrive', form, res, (body, nonce) => {
        const now = Math.floor(Date.now() / 1000);
        const claims = {
          aud: CLIENTS.onedrive.id,
          iss: `${root}/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0`,
          iat: now,
          nbf: now,
          exp: now + 3600,
          name: USERS.onedrive.name,
          preferred_username: USERS.onedrive.email,
          oid: '00000000-0000-0000-aaaa-000000000001',
          sub: 'ada-subject',
          tid: '9188040d-6c67-4c5b-b112-36a304b66dad',
          ver: '2.0',
          ...(nonce ? { nonce } : {}),
        };
        body.id_token = `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}.`;
        body.client_info = b64url(JSON.stringify({ uid: claims.oid, utid: claims.tid }));
        body.scope = 'Files.Read.All User.Read openid profile offline_access';
        body.ext_expires_in = body.expires_in;
        body.token_type = 'Bearer';
      });
    }
    return json(res, 404, { error: 'no such route' });
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    const path = url.pathname;
    const route = path.startsWith('/google/')
      ? google(req, res, url, path)
      : path.startsWith('/dropbox/')
        ? dropbox(req, res, url, path)
        : path.startsWith('/box/')
          ? box(req, res, url, path)
          : path.startsWith('/graph/')
            ? Promise.resolve(graph(req, res, url, path))
            : Promise.resolve(json(res, 404, { error: 'no such route' }));
    route.catch((error: Error) => json(res, 500, { error: error.message }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  } as Parameters<typeof generate>[1]);
  const https = createHttpsServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    microsoft(req, res).catch((error: Error) => json(res, 500, { error: error.message }));
  });
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  authority = `https://127.0.0.1:${(https.address() as AddressInfo).port}/common`;
  // This process (msal-node's requests, the test's fetch) trusts the certificate made for this run.
  setDefaultCACertificates([...rootCertificates, pems.cert]);

  return Object.assign(state, {
    url: base,
    authority,
    caFile: null,
    ca: pems.cert,
    expire(provider: CloudProvider) {
      for (const v of access.values()) if (v.provider === provider) v.valid = false;
    },
    revokeAll(provider: CloudProvider) {
      for (const v of refresh.values()) if (v.provider === provider) v.valid = false;
    },
    env(): Record<string, string> {
      return {
        AV_GOOGLE_CLIENT_ID: CLIENTS.google.id,
        AV_GOOGLE_CLIENT_SECRET: CLIENTS.google.secret,
        AV_GOOGLE_AUTH_URL: `${base}/google/authorize`,
        AV_GOOGLE_TOKEN_URL: `${base}/google/token`,
        AV_GOOGLE_REVOKE_URL: `${base}/google/revoke`,
        AV_GOOGLE_API_URL: `${base}/google`,
        AV_DROPBOX_APP_KEY: CLIENTS.dropbox.id,
        AV_DROPBOX_AUTH_URL: `${base}/dropbox/authorize`,
        AV_DROPBOX_API_URL: `${base}/dropbox`,
        AV_BOX_CLIENT_ID: CLIENTS.box.id,
        AV_BOX_CLIENT_SECRET: CLIENTS.box.secret,
        AV_BOX_AUTH_URL: `${base}/box/authorize`,
        AV_BOX_API_URL: `${base}/box`,
        AV_ONEDRIVE_CLIENT_ID: CLIENTS.onedrive.id,
        AV_ONEDRIVE_AUTHORITY: authority,
        AV_GRAPH_API_URL: `${base}/graph/v1.0`,
      };
    },
    async close() {
      server.closeAllConnections();
      https.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => server.close(() => resolve())),
        new Promise<void>((resolve) => https.close(() => resolve())),
      ]);
    },
  });
}

/** What the system browser does with the address the app opened: follows the redirects to the loopback. */
export async function visit(url: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { redirect: 'follow' });
  return { status: res.status, text: await res.text() };
}
