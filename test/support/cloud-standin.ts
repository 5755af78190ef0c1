import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The cloud providers at the network boundary, for the browser tests. For the page: stand-ins of the
 * scripts the portal loads (Google Identity Services, gapi and the Google Picker; the Dropbox Chooser;
 * Box's Content Picker, with its sign-in page and token endpoint),
 * defining just the globals the real ones define, with a small dialog listing this stand-in's files.
 * For the server: Drive v3 `files/{id}` (metadata, and `alt=media` with Range) and Dropbox direct links
 * with Range. A page may set `window.__cloudStandIn = { tokenError: true }` (an init script) to make
 * the sign-in fail.
 */
export interface StandInFile {
  id: string;
  name: string;
  mimeType: string;
  data: Buffer;
  sha256: string;
}

export interface CloudStandIn {
  url: string;
  files: StandInFile[];
  /** Milliseconds before each media answer, so a test can watch an import run. */
  delayMs: number;
  mediaRequests: number;
  close(): Promise<void>;
}

export function standInFile(id: string, name: string, size: number, mimeType = 'video/mp4'): StandInFile {
  const data = randomBytes(size);
  return { id, name, mimeType, data, sha256: createHash('sha256').update(data).digest('hex') };
}

const PICKER_DIALOG = `
function standInDialog(title, files, onDone) {
  const dialog = document.createElement('div');
  dialog.setAttribute('role', 'dialog');
  dialog.setAttribute('aria-label', title);
  dialog.style.cssText = 'position:fixed;inset:10% 10%;background:#fff;border:1px solid #333;z-index:9999;padding:16px;overflow:auto';
  const list = document.createElement('ul');
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
  const select = document.createElement('button');
  select.textContent = 'Select';
  const cancel = document.createElement('button');
  cancel.textContent = 'Cancel';
  select.onclick = () => {
    const chosen = [...list.querySelectorAll('input:checked')].map((b) => files.find((f) => f.id === b.value));
    dialog.remove();
    onDone(chosen);
  };
  cancel.onclick = () => { dialog.remove(); onDone(null); };
  dialog.append(list, select, cancel);
  document.body.append(dialog);
}`;

function googleScripts(base: string, files: StandInFile[]): { api: string; gsi: string } {
  const listed = JSON.stringify(
    files.map((f) => ({ id: f.id, name: f.name, mimeType: f.mimeType, size: f.data.length })),
  );
  return {
    gsi: `window.google = window.google || {};
window.google.accounts = { oauth2: { initTokenClient(options) {
  return { requestAccessToken() {
    setTimeout(() => {
      const mode = window.__cloudStandIn || {};
      if (mode.tokenError) options.error_callback && options.error_callback({ type: 'unknown', message: 'stand-in refused' });
      else options.callback({ access_token: 'drive-token-from-stand-in', expires_in: 3600, scope: options.scope });
    }, 10);
  } };
} } };`,
    api: `${PICKER_DIALOG}
window.google = window.google || {};
window.gapi = { load(name, options) { setTimeout(() => (options.callback || options)(), 10); } };
const files = ${listed};
function Builder() { this.views = []; }
Builder.prototype.setOAuthToken = function (t) { this.token = t; return this; };
Builder.prototype.setDeveloperKey = function (k) { this.key = k; return this; };
Builder.prototype.setAppId = function (a) { this.appId = a; return this; };
Builder.prototype.addView = function (v) { this.views.push(v); return this; };
Builder.prototype.enableFeature = function () { return this; };
Builder.prototype.setCallback = function (c) { this.callback = c; return this; };
Builder.prototype.build = function () {
  const builder = this;
  return { setVisible() {
    if (builder.token !== 'drive-token-from-stand-in' || !builder.key) throw new Error('stand-in picker: no token or key');
    standInDialog('Google Picker (stand-in)', files, (chosen) => {
      if (!chosen) builder.callback({ action: 'cancel' });
      else builder.callback({ action: 'picked', docs: chosen.map((f) => ({ id: f.id, name: f.name, mimeType: f.mimeType, sizeBytes: f.size })) });
    });
  } };
};
function DocsView() {}
DocsView.prototype.setIncludeFolders = function () { return this; };
DocsView.prototype.setSelectFolderEnabled = function () { return this; };
window.google.picker = {
  Action: { PICKED: 'picked', CANCEL: 'cancel' },
  Feature: { MULTISELECT_ENABLED: 'multi', SUPPORT_DRIVES: 'drives' },
  ViewId: { DOCS: 'all' },
  DocsView,
  PickerBuilder: Builder,
};
void ${JSON.stringify(base)};`,
  };
}

function dropboxScript(base: string, files: StandInFile[]): string {
  const listed = JSON.stringify(
    files.map((f) => ({
      id: f.id,
      name: f.name,
      bytes: f.data.length,
      link: `${base}/dropbox/dl/${f.id}/${encodeURIComponent(f.name)}`,
    })),
  );
  return `${PICKER_DIALOG}
window.Dropbox = { choose(options) {
  if (!document.getElementById('dropboxjs') || !document.getElementById('dropboxjs').dataset.appKey) throw new Error('no app key');
  if (options.linkType !== 'direct') throw new Error('stand-in: direct links only');
  standInDialog('Dropbox Chooser (stand-in)', ${listed}, (chosen) => {
    if (!chosen) options.cancel && options.cancel();
    else options.success(chosen.map((f) => ({ name: f.name, link: f.link, bytes: f.bytes })));
  });
} };`;
}

function boxScript(files: StandInFile[]): string {
  const listed = JSON.stringify(files.map((f) => ({ id: f.id, name: f.name, size: f.data.length })));
  return `window.Box = { ContentPicker: function () {
  const listeners = {};
  this.addListener = (event, listener) => { listeners[event] = listener; };
  this.show = (folder, token, options) => {
    if (token !== 'box-token-from-stand-in' || !options.container) throw new Error('stand-in: no token');
    const list = document.createElement('ul');
    for (const file of ${listed}) {
      const item = document.createElement('li');
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = file.id;
      label.append(box, ' ' + file.name);
      item.append(label);
      list.append(item);
    }
    const choose = document.createElement('button');
    choose.textContent = 'Choose';
    choose.onclick = () => listeners.choose([...list.querySelectorAll('input:checked')].map((b) => {
      const f = ${listed}.find((x) => x.id === b.value);
      return { id: f.id.replace('box-', ''), name: f.name, size: f.size, type: 'file' };
    }));
    const cancel = document.createElement('button');
    cancel.textContent = 'Cancel';
    cancel.onclick = () => listeners.cancel();
    options.container.append(list, choose, cancel);
  };
} };`;
}

export async function startCloudStandIn(files: StandInFile[]): Promise<CloudStandIn> {
  const state = { files, delayMs: 0, mediaRequests: 0 };
  let base = '';

  async function media(req: IncomingMessage, res: ServerResponse, file: StandInFile): Promise<void> {
    state.mediaRequests++;
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

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base);
    const scripts = googleScripts(base, state.files);
    const js = (body: string) => res.writeHead(200, { 'content-type': 'text/javascript' }).end(body);
    if (url.pathname === '/google/gsi.js') return void js(scripts.gsi);
    if (url.pathname === '/google/api.js') return void js(scripts.api);
    if (url.pathname === '/dropbox/dropins.js') return void js(dropboxScript(base, state.files));
    if (url.pathname === '/box/picker.js') return void js(boxScript(state.files));
    if (url.pathname === '/box/picker.css')
      return void res.writeHead(200, { 'content-type': 'text/css' }).end('');
    // Box's sign-in page: straight back to the app with a code, as after the user allows access.
    if (url.pathname === '/box/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set(
        'code',
        url.searchParams.get('client_id') === 'box-stand-in-client' ? 'good-code' : 'bad',
      );
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      return void res.writeHead(302, { location: back.href }).end();
    }
    if (req.method === 'POST' && url.pathname === '/oauth2/token') {
      let text = '';
      for await (const chunk of req) text += String(chunk);
      const form = new URLSearchParams(text);
      if (form.get('code') !== 'good-code' || form.get('client_secret') !== 'box-stand-in-secret') {
        return void res
          .writeHead(400, { 'content-type': 'application/json' })
          .end('{"error":"invalid_grant"}');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(
        JSON.stringify({ access_token: 'box-token-from-stand-in', expires_in: 3600, token_type: 'bearer' }),
      );
    }
    const box = /^\/2\.0\/files\/(\d+)(\/content)?$/.exec(url.pathname);
    if (box) {
      if (req.headers.authorization !== 'Bearer box-token-from-stand-in')
        return void res.writeHead(401).end();
      const file = state.files.find((f) => f.id === `box-${box[1]}`);
      if (!file) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      if (!box[2]) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(
          JSON.stringify({ type: 'file', id: box[1], name: file.name, size: file.data.length }),
        );
      }
      return void res.writeHead(302, { location: `${base}/box/dl/${file.id}` }).end();
    }
    const boxDl = /^\/box\/dl\/([^/]+)$/.exec(url.pathname);
    if (boxDl) {
      const file = state.files.find((f) => f.id === decodeURIComponent(boxDl[1]!));
      if (file && !req.headers.authorization) return media(req, res, file);
      return void res.writeHead(400).end();
    }
    const drive = /^\/drive\/v3\/files\/([^/]+)$/.exec(url.pathname);
    if (drive) {
      if (req.headers.authorization !== 'Bearer drive-token-from-stand-in') {
        return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"code":401}}');
      }
      const file = state.files.find((f) => f.id === decodeURIComponent(drive[1]!));
      if (!file)
        return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":404}}');
      if (url.searchParams.get('alt') === 'media') return media(req, res, file);
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(
        JSON.stringify({
          id: file.id,
          name: file.name,
          mimeType: file.mimeType,
          size: String(file.data.length),
        }),
      );
    }
    const dl = /^\/dropbox\/dl\/([^/]+)\//.exec(url.pathname);
    if (dl) {
      const file = state.files.find((f) => f.id === decodeURIComponent(dl[1]!));
      if (file) return media(req, res, file);
    }
    res.writeHead(404).end();
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url: base,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** The server's settings that aim it, and the portal's pickers, at this stand-in. */
export function cloudEnv(standIn: CloudStandIn): Record<string, string> {
  return {
    GOOGLE_CLIENT_ID: 'stand-in.apps.googleusercontent.com',
    GOOGLE_API_KEY: 'stand-in-api-key',
    GOOGLE_APP_ID: '123456789',
    GOOGLE_API_URL: standIn.url,
    GOOGLE_PICKER_SCRIPTS: `${standIn.url}/google/api.js,${standIn.url}/google/gsi.js`,
    DROPBOX_APP_KEY: 'stand-in-app-key',
    DROPBOX_PICKER_SCRIPTS: `${standIn.url}/dropbox/dropins.js`,
    DROPBOX_CONTENT_URL: standIn.url,
    BOX_CLIENT_ID: 'box-stand-in-client',
    BOX_CLIENT_SECRET: 'box-stand-in-secret',
    BOX_API_URL: standIn.url,
    BOX_AUTHORIZE_URL: `${standIn.url}/box/authorize`,
    BOX_PICKER_SCRIPTS: `${standIn.url}/box/picker.js,${standIn.url}/box/picker.css`,
  };
}
