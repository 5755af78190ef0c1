/**
 * DEVELOPMENT ONLY. The bridge's page script: window.avUpload (the preload contract, src/main/api.ts)
 * over the bridge's HTTP API and event stream, for the renderer in a plain browser. The bridge's copy of
 * index.html loads it before the app; the Electron app never does.
 *
 * A browser cannot tell a page where a file lives on disk, so pathForFile knows only the files this
 * script made itself: the 'Development bridge' panel takes typed paths and drops them on the window as
 * files (empty stand-ins named like the real ones), the same way a drop from the operating system arrives.
 * The system's folder chooser is the panel's 'Folder to choose' field: chooseFolder answers what is
 * typed there, or null (the dialog closed) when it is empty. A cloud sign-in page the app would open in
 * the system browser shows in the panel as a link ('Sign-in page for …'), to open in another tab.
 */
import type { DesktopApi } from '../../main/api.js';

type Snapshot = Parameters<Parameters<DesktopApi['onChange']>[0]>[0];

const API = '/__bridge/api/';
const EVENTS = '/__bridge/events';

async function call<T>(method: string, ...args: unknown[]): Promise<T> {
  const res = await fetch(API + method, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  const body = (await res.json()) as { value?: T; error?: string };
  if (!res.ok) throw new Error(body.error ?? `The bridge answered ${res.status}.`);
  return body.value as T;
}

const listeners = new Set<(snapshot: Snapshot) => void>();
/** One event stream for the page's life: the queue's snapshots and the cloud sign-in pages 'opened'. */
const stream = new EventSource(EVENTS);
stream.onmessage = (event: MessageEvent<string>) => {
  const snapshot = JSON.parse(event.data) as Snapshot;
  for (const each of listeners) each(snapshot);
};

function subscribe(listener: (snapshot: Snapshot) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Files this script created for typed paths, and where they are on disk. */
const paths = new WeakMap<File, string>();

const api: DesktopApi = {
  session: () => call('session'),
  login: (server, email, password) => call('login', server, email, password),
  logout: () => call('logout'),
  submit: (form, chosen, picked = []) => call('submit', form, chosen, picked),
  checkPaths: (chosen) => call('checkPaths', chosen),
  uploadEvents: () => call('uploadEvents'),
  mediaFacts: (chosen) => call('mediaFacts', chosen),
  reviews: () => call('reviews'),
  pullEvents: () => call('pullEvents'),
  startPull: (event, acceptedOnly, dir, bandwidth = 0) =>
    call('startPull', event, acceptedOnly, dir, bandwidth),
  cancelPull: () => call('cancelPull'),
  retryNow: () => call('retryNow'),
  pauseFile: (jobId, key) => call('pauseFile', jobId, key),
  resumeFile: (jobId, key) => call('resumeFile', jobId, key),
  pauseAll: () => call('pauseAll'),
  resumeAll: () => call('resumeAll'),
  setSettings: (settings) => call('setSettings', settings),
  snapshot: () => call('snapshot'),
  onChange: subscribe,
  // '' like Electron's webUtils.getPathForFile for a file that is not on disk.
  pathForFile: (file) => paths.get(file) ?? '',
  chooseFolder: () => Promise.resolve(chosenFolder()),
  addWatch: (form, folder) => call('addWatch', form, folder),
  removeWatch: (id) => call('removeWatch', id),
  showLog: () => call('showLog'),
  cloudProviders: () => call('cloudProviders'),
  connectCloud: (provider) => call('connectCloud', provider),
  cancelConnect: (provider) => call('cancelConnect', provider),
  disconnectCloud: (provider) => call('disconnectCloud', provider),
  browseCloud: (provider, folderId) => call('browseCloud', provider, folderId),
  searchCloud: (provider, query) => call('searchCloud', provider, query),
};

Object.defineProperty(window, 'avUpload', { value: Object.freeze(api), enumerable: true });

/** The panel's 'Folder to choose' field (created by panel()). */
let folderField: HTMLInputElement | null = null;
const chosenFolder = () => folderField?.value.trim() || null;

/** Drops the given paths on the page as the operating system would; false when nothing took the drop. */
function dropPaths(list: string[]): boolean {
  const transfer = new DataTransfer();
  for (const full of list) {
    const name =
      full
        .replace(/[\\/]+$/, '')
        .split(/[\\/]/)
        .pop() || full;
    const file = new File([], name);
    paths.set(file, full);
    transfer.items.add(file);
  }
  const event = new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true });
  return !document.body.dispatchEvent(event);
}

/**
 * A small panel after the app's own markup (styled through the CSSOM: the CSP refuses style attributes).
 * It flows below the page rather than floating over it, so it never covers the app's controls (it hid
 * 'Choose files' at 1280×800 when it was fixed to a corner).
 */
function panel(): void {
  const aside = document.createElement('aside');
  aside.setAttribute('aria-label', 'Development bridge');
  Object.assign(aside.style, {
    margin: '16px auto 8px',
    maxWidth: '420px',
    padding: '8px 12px',
    background: '#fff8e1',
    border: '2px dashed #b5470b',
    borderRadius: '6px',
    font: '14px system-ui, sans-serif',
  });
  const details = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = 'Development bridge';
  const label = document.createElement('label');
  label.textContent = 'Paths to drop (one per line)';
  label.htmlFor = 'av-bridge-paths';
  Object.assign(label.style, { display: 'block', marginTop: '8px' });
  const area = document.createElement('textarea');
  area.id = 'av-bridge-paths';
  area.rows = 3;
  Object.assign(area.style, { display: 'block', width: '100%', fontFamily: 'monospace' });
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Drop paths';
  Object.assign(button.style, { marginTop: '8px' });
  const status = document.createElement('p');
  status.setAttribute('role', 'status');
  Object.assign(status.style, { margin: '4px 0 0' });
  button.addEventListener('click', () => {
    const list = area.value
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    if (list.length === 0) {
      status.textContent = 'Type at least one path.';
      return;
    }
    const taken = dropPaths(list);
    status.textContent = taken
      ? `Dropped ${list.length} path(s).`
      : 'Nothing took the drop: open New upload first.';
    if (taken) {
      area.value = '';
      // Folded away again: the page stays as short as the app.
      details.open = false;
    }
  });
  const folderLabel = document.createElement('label');
  folderLabel.textContent = 'Folder to choose';
  folderLabel.htmlFor = 'av-bridge-folder';
  Object.assign(folderLabel.style, { display: 'block', marginTop: '8px' });
  const folderHint = document.createElement('p');
  folderHint.id = 'av-bridge-folder-hint';
  folderHint.textContent = 'What the app’s folder chooser answers; empty: as if it were closed.';
  Object.assign(folderHint.style, { margin: '0', fontSize: '12px' });
  folderField = document.createElement('input');
  folderField.id = 'av-bridge-folder';
  folderField.type = 'text';
  folderField.setAttribute('aria-describedby', folderHint.id);
  Object.assign(folderField.style, { display: 'block', width: '100%', fontFamily: 'monospace' });
  details.append(summary, label, area, button, folderLabel, folderHint, folderField);
  const signIn = document.createElement('p');
  Object.assign(signIn.style, { margin: '4px 0 0', overflowWrap: 'anywhere' });
  signIn.hidden = true;
  stream.addEventListener('sign-in', (event: MessageEvent<string>) => {
    const page = JSON.parse(event.data) as { provider: string; url: string };
    const link = document.createElement('a');
    link.href = page.url;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    link.textContent = `Sign-in page for ${page.provider}`;
    signIn.replaceChildren('The app would open this in the system browser: ', link);
    signIn.hidden = false;
  });
  aside.append(details, status, signIn);
  document.body.append(aside);
}

panel();
