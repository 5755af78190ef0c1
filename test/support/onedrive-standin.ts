import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import type { StandInFile } from './cloud-standin';

/**
 * OneDrive at the network boundary, for the browser test of the File Picker v8 path:
 *
 *   https (a certificate made for this run: msal-browser insists on an https authority)
 *     /common/v2.0/.well-known/openid-configuration   OIDC discovery
 *     /common/oauth2/v2.0/authorize                   a consenting user: 302 back to the redirect URI with a
 *                                                     code and the state (in the fragment or the query, as
 *                                                     response_mode asks), or error=access_denied
 *     /common/oauth2/v2.0/token                       code (PKCE checked) and refresh_token grants, with CORS;
 *                                                     an unsigned JWT-shaped id_token carrying the nonce sent
 *     /picker                                         the v8 picker page: reads the POSTed access_token and
 *                                                     the filePicker options, speaks the v8 protocol to
 *                                                     its host (window.opener in a popup, window.parent in
 *                                                     a frame: initialize → activate, one 'authenticate',
 *                                                     then 'pick' with the items or 'close')
 *   http (the server's GRAPH_API_URL, as api/test/helpers/cloud-standins/providers.ts)
 *     /v1.0/drives/:drive/items/:item                 metadata (bearer token with Files.Read.All)
 *     /v1.0/drives/:drive/items/:item/content         302 to /graph-dl/:item, pre-authenticated, with Range
 *
 * The picker page and Graph accept only tokens this authority issued for the scope each needs, so a token
 * for the wrong audience shows as a failure.
 */
export const ONEDRIVE_CLIENT_ID = '00000000-0000-0000-0000-0000000d21fe';
/**
 * A personal OneDrive, with ids of the shapes Graph's own documentation shows: the drive id as
 * parentReference.driveId gives it (16 hex digits, lower case) and item ids that are the drive id in
 * upper case, a '!' and a number (`D4648F06C91D9D3D!54927`), so a client or server that joins or
 * splits them at a '!' asks for an item that is not there.
 */
export const ONEDRIVE_DRIVE = 'd4648f06c91d9d3d';
/** The Graph item id of the stand-in's n-th file. */
export function graphItemId(files: StandInFile[], file: StandInFile): string {
  return `${ONEDRIVE_DRIVE.toUpperCase()}!${54927 + files.indexOf(file)}`;
}
const TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';
const USER = {
  oid: '00000000-0000-0000-aaaa-0000000000d1',
  name: 'Ada OneDrive',
  email: 'ada@outlook.example',
};

export interface OneDriveStandIn {
  /** The authority MSAL signs in against (https). */
  authority: string;
  /** The v8 picker page (https). */
  pickerUrl: string;
  /** Graph's base for the server (http). */
  graphUrl: string;
  files: StandInFile[];
  /** The next authorize requests answer error=access_denied while set. */
  signInError: boolean;
  /** Milliseconds before each byte answer, so a test can watch an import run. */
  delayMs: number;
  /** Every authorize request's query, every token request's grant and scope, every picker command sent. */
  authorizeRequests: Record<string, string>[];
  tokenRequests: { grant: string; scope: string }[];
  pickerLoads: number;
  /** Graph requests that arrived with a token issued for another scope (e.g. the picker's). */
  wrongTokens: number;
  leakedTokens: number;
  close(): Promise<void>;
}

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function pickerPage(files: StandInFile[], token: string, options: string): string {
  const listed = files.map((f) => ({
    id: graphItemId(files, f),
    name: f.name,
    size: f.data.length,
    parentReference: { driveId: ONEDRIVE_DRIVE },
  }));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>OneDrive (stand-in)</title></head>
<body>
<main role="dialog" aria-label="OneDrive picker (stand-in)">
  <p role="status" id="status">Connecting…</p>
  <ul id="files" aria-label="OneDrive files"></ul>
  <button id="select" disabled>Select</button>
  <button id="cancel">Cancel</button>
</main>
<script>
const files = ${JSON.stringify(listed)};
const posted = ${JSON.stringify(token)};
const status = document.getElementById('status');
let options;
try { options = JSON.parse(${JSON.stringify(options)}); } catch { options = null; }
function fail(text) { status.textContent = 'Picker error: ' + text; }
(async () => {
  if (!options || options.sdk !== '8.0' || !options.messaging || !options.messaging.channelId) return fail('bad filePicker options');
  if (!posted) return fail('no access_token posted');
  const valid = await fetch('/stand-in/token-check?scope=OneDrive.ReadOnly&token=' + encodeURIComponent(posted)).then((r) => r.ok);
  if (!valid) return fail('the posted access_token is not a OneDrive.ReadOnly token');
  // Hosted in a popup it talks to its opener; hosted in a frame, to its parent (the v8 protocol's two ways).
  const host = window.opener || (window.parent !== window ? window.parent : null);
  if (!host) return fail('no host window');
  const channel = new MessageChannel();
  const port = channel.port1;
  const pending = new Map();
  let next = 1;
  function command(data) {
    const id = String(next++);
    return new Promise((resolve) => {
      pending.set(id, resolve);
      port.postMessage({ type: 'command', id, data });
    });
  }
  let activated;
  const active = new Promise((resolve) => (activated = resolve));
  port.onmessage = (event) => {
    const message = event.data;
    if (message.type === 'activate') activated();
    if (message.type === 'result' && pending.has(message.id)) {
      pending.get(message.id)(message.data);
      pending.delete(message.id);
    }
  };
  host.postMessage({ type: 'initialize', channelId: options.messaging.channelId }, options.messaging.origin, [channel.port2]);
  await active;
  const auth = await command({ command: 'authenticate', type: 'SharePoint', resource: 'https://my.microsoftpersonalcontent.com' });
  if (!auth || auth.result !== 'token') return fail('no token from the host');
  const ok = await fetch('/stand-in/token-check?scope=OneDrive.ReadOnly&token=' + encodeURIComponent(auth.token)).then((r) => r.ok);
  if (!ok) return fail('the host answered authenticate with a token for another scope');
  const list = document.getElementById('files');
  for (const file of files) {
    const item = document.createElement('li');
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.value = file.id;
    label.append(box, ' ' + file.name);
    item.append(label);
    list.append(item);
  }
  status.textContent = 'Your files';
  const select = document.getElementById('select');
  select.disabled = false;
  select.onclick = async () => {
    const items = [...list.querySelectorAll('input:checked')].map((b) => files.find((f) => f.id === b.value));
    const answer = await command({ command: 'pick', items });
    status.textContent = answer && answer.result === 'success' ? 'Picked' : 'Pick refused';
  };
  document.getElementById('cancel').onclick = () => void command({ command: 'close' });
})().catch((error) => fail(String(error)));
</script>
</body></html>`;
}

export async function startOneDriveStandIn(files: StandInFile[]): Promise<OneDriveStandIn> {
  const state = {
    files,
    signInError: false,
    delayMs: 0,
    authorizeRequests: [] as Record<string, string>[],
    tokenRequests: [] as { grant: string; scope: string }[],
    pickerLoads: 0,
    wrongTokens: 0,
    leakedTokens: 0,
  };
  /** code → what it was issued for; token → its scopes. */
  const codes = new Map<string, { challenge: string; nonce: string; redirect: string; scope: string }>();
  const tokens = new Map<string, string[]>();
  const refreshTokens = new Set<string>();
  let authority = '';
  let graphBase = '';

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  function issue(scope: string, nonce: string | null): Record<string, unknown> {
    const scopes = scope.split(' ').filter((s) => !['openid', 'profile', 'offline_access'].includes(s));
    const access = `od-${randomBytes(12).toString('hex')}`;
    tokens.set(access, scopes);
    const refresh = `odr-${randomBytes(12).toString('hex')}`;
    refreshTokens.add(refresh);
    const now = Math.floor(Date.now() / 1000);
    const root = new URL(authority).origin;
    const claims = {
      aud: ONEDRIVE_CLIENT_ID,
      iss: `${root}/${TENANT}/v2.0`,
      iat: now,
      nbf: now,
      exp: now + 3600,
      name: USER.name,
      preferred_username: USER.email,
      oid: USER.oid,
      sub: 'ada-onedrive-subject',
      tid: TENANT,
      ver: '2.0',
      ...(nonce ? { nonce } : {}),
    };
    return {
      token_type: 'Bearer',
      scope: [...scopes, 'openid', 'profile', 'offline_access'].join(' '),
      expires_in: 3600,
      ext_expires_in: 3600,
      access_token: access,
      refresh_token: refresh,
      id_token: `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}.`,
      client_info: b64url(JSON.stringify({ uid: USER.oid, utid: TENANT })),
    };
  }

  async function identity(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', authority);
    const root = url.origin;
    const cors = {
      'access-control-allow-origin': req.headers.origin ?? '*',
      'access-control-allow-headers': '*',
      'access-control-allow-methods': 'GET, POST',
    };
    if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
    if (url.pathname === '/common/v2.0/.well-known/openid-configuration') {
      return json(
        res,
        200,
        {
          token_endpoint: `${root}/common/oauth2/v2.0/token`,
          authorization_endpoint: `${root}/common/oauth2/v2.0/authorize`,
          end_session_endpoint: `${root}/common/oauth2/v2.0/logout`,
          issuer: `${root}/{tenantid}/v2.0`,
          jwks_uri: `${root}/common/discovery/v2.0/keys`,
          response_modes_supported: ['query', 'fragment', 'form_post'],
          token_endpoint_auth_methods_supported: [
            'client_secret_post',
            'private_key_jwt',
            'client_secret_basic',
          ],
        },
        cors,
      );
    }
    if (url.pathname === '/common/oauth2/v2.0/authorize') {
      const query = Object.fromEntries(url.searchParams);
      state.authorizeRequests.push(query);
      const back = new URL(query.redirect_uri ?? '');
      const answer = new URLSearchParams();
      if (state.signInError || query.client_id !== ONEDRIVE_CLIENT_ID) {
        answer.set('error', 'access_denied');
        answer.set('error_description', 'AADSTS65004: The user declined to consent (stand-in).');
      } else {
        const code = `odc-${randomUUID()}`;
        codes.set(code, {
          challenge: query.code_challenge ?? '',
          nonce: query.nonce ?? '',
          redirect: query.redirect_uri ?? '',
          scope: query.scope ?? '',
        });
        answer.set('code', code);
        answer.set('client_info', b64url(JSON.stringify({ uid: USER.oid, utid: TENANT })));
      }
      answer.set('state', query.state ?? '');
      if (query.response_mode === 'query') back.search = answer.toString();
      else back.hash = answer.toString();
      return void res.writeHead(302, { location: back.href }).end();
    }
    if (req.method === 'POST' && url.pathname === '/common/oauth2/v2.0/token') {
      const form = new URLSearchParams(await readBody(req));
      const grant = form.get('grant_type') ?? '';
      const scope = form.get('scope') ?? '';
      state.tokenRequests.push({ grant, scope });
      if (form.get('client_id') !== ONEDRIVE_CLIENT_ID)
        return json(res, 400, { error: 'invalid_client' }, cors);
      if (grant === 'authorization_code') {
        const issued = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (
          !issued ||
          issued.redirect !== form.get('redirect_uri') ||
          createHash('sha256').update(verifier).digest('base64url') !== issued.challenge
        ) {
          return json(res, 400, { error: 'invalid_grant', error_description: 'stand-in: bad code' }, cors);
        }
        return json(res, 200, issue(scope, issued.nonce), cors);
      }
      if (grant === 'refresh_token' && refreshTokens.has(form.get('refresh_token') ?? '')) {
        return json(res, 200, issue(scope, null), cors);
      }
      return json(res, 400, { error: 'invalid_grant', error_description: 'stand-in: unknown grant' }, cors);
    }
    if (url.pathname === '/stand-in/token-check') {
      const scopes = tokens.get(url.searchParams.get('token') ?? '');
      return void res.writeHead(scopes?.includes(url.searchParams.get('scope') ?? '') ? 204 : 403).end();
    }
    if (url.pathname === '/picker') {
      state.pickerLoads++;
      const form = req.method === 'POST' ? new URLSearchParams(await readBody(req)) : new URLSearchParams();
      const page = pickerPage(
        state.files,
        form.get('access_token') ?? '',
        url.searchParams.get('filePicker') ?? '',
      );
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    }
    json(res, 404, { error: 'no such route' });
  }

  async function bytes(req: IncomingMessage, res: ServerResponse, file: StandInFile): Promise<void> {
    const match = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    const start = match ? Number(match[1]) : 0;
    const end = match ? Math.min(Number(match[2]), file.data.length - 1) : file.data.length - 1;
    if (state.delayMs > 0) await new Promise((r) => setTimeout(r, state.delayMs));
    const body = file.data.subarray(start, end + 1);
    res.writeHead(match ? 206 : 200, {
      'content-type': file.mimeType,
      'content-length': String(body.length),
      ...(match ? { 'content-range': `bytes ${start}-${end}/${file.data.length}` } : {}),
    });
    res.end(body);
  }

  async function graph(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', graphBase);
    let m = /^\/v1\.0\/drives\/([^/]+)\/items\/([^/]+?)(\/content)?$/.exec(url.pathname);
    if (m) {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const scopes = tokens.get(bearer);
      if (!scopes?.includes('Files.Read.All')) {
        if (scopes) state.wrongTokens++;
        return json(res, 401, {
          error: { code: 'InvalidAuthenticationToken', message: 'stand-in: token refused' },
        });
      }
      const file =
        decodeURIComponent(m[1]!) === ONEDRIVE_DRIVE &&
        files.find((f) => graphItemId(files, f) === decodeURIComponent(m![2]!));
      if (!file) return json(res, 404, { error: { code: 'itemNotFound', message: 'not found' } });
      if (!m[3]) {
        return json(res, 200, {
          id: graphItemId(files, file),
          name: file.name,
          size: file.data.length,
          file: { mimeType: file.mimeType },
        });
      }
      return void res
        .writeHead(302, { location: `${graphBase}/graph-dl/${encodeURIComponent(file.id)}?tempauth=x` })
        .end();
    }
    if ((m = /^\/graph-dl\/([^/]+)$/.exec(url.pathname))) {
      if (req.headers.authorization) {
        state.leakedTokens++;
        return json(res, 400, { error: 'pre-authenticated URL: no Authorization header' });
      }
      const file = files.find((f) => f.id === decodeURIComponent(m![1]!));
      return file ? bytes(req, res, file) : json(res, 404, {});
    }
    json(res, 404, { error: { code: 'notFound' } });
  }

  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const https = createHttpsServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    identity(req, res).catch((error: Error) => json(res, 500, { error: error.message }));
  });
  const http: Server = createServer((req, res) => {
    graph(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
  authority = `${origin}/common`;
  graphBase = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  return Object.assign(state, {
    authority,
    pickerUrl: `${origin}/picker`,
    graphUrl: `${graphBase}/v1.0`,
    async close() {
      https.closeAllConnections();
      http.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => https.close(() => resolve())),
        new Promise<void>((resolve) => http.close(() => resolve())),
      ]);
    },
  });
}

/** The server's settings that show the OneDrive button and aim the picker, MSAL and Graph at the stand-in. */
export function oneDriveEnv(standIn: OneDriveStandIn): Record<string, string> {
  return {
    ONEDRIVE_CLIENT_ID,
    ONEDRIVE_AUTHORITY: standIn.authority,
    ONEDRIVE_PICKER_URL: standIn.pickerUrl,
    GRAPH_API_URL: standIn.graphUrl,
  };
}
