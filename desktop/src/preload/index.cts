/**
 * The preload script: the minimal, typed window.avUpload API (src/main/api.ts) over IPC. It runs
 * sandboxed (CommonJS, electron's modules only); no Node API and no ipcRenderer reach the page.
 */
// A sandboxed preload is CommonJS: require is the only way in.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import electron = require('electron');
import type { DesktopApi } from '../main/api.js' with { 'resolution-mode': 'import' };

const { contextBridge, ipcRenderer, webUtils } = electron;

// Kept in step with CHANNELS in src/main/api.ts (a sandboxed preload cannot import it).
const C = {
  session: 'av:session',
  login: 'av:login',
  logout: 'av:logout',
  submit: 'av:submit',
  checkPaths: 'av:check-paths',
  uploadEvents: 'av:upload-events',
  mediaFacts: 'av:media-facts',
  reviews: 'av:reviews',
  pullEvents: 'av:pull-events',
  startPull: 'av:start-pull',
  cancelPull: 'av:cancel-pull',
  retryNow: 'av:retry-now',
  pauseFile: 'av:pause-file',
  resumeFile: 'av:resume-file',
  pauseAll: 'av:pause-all',
  resumeAll: 'av:resume-all',
  setSettings: 'av:set-settings',
  snapshot: 'av:snapshot',
  changed: 'av:changed',
  chooseFolder: 'av:choose-folder',
  addWatch: 'av:add-watch',
  removeWatch: 'av:remove-watch',
  showLog: 'av:show-log',
  cloudProviders: 'av:cloud-providers',
  connectCloud: 'av:connect-cloud',
  cancelConnect: 'av:cancel-connect',
  disconnectCloud: 'av:disconnect-cloud',
  browseCloud: 'av:browse-cloud',
  searchCloud: 'av:search-cloud',
} as const;

const api: DesktopApi = {
  session: () => ipcRenderer.invoke(C.session),
  login: (server, email, password) => ipcRenderer.invoke(C.login, server, email, password),
  logout: () => ipcRenderer.invoke(C.logout),
  submit: (form, paths, picked = []) => ipcRenderer.invoke(C.submit, form, paths, picked),
  checkPaths: (paths) => ipcRenderer.invoke(C.checkPaths, paths),
  uploadEvents: () => ipcRenderer.invoke(C.uploadEvents),
  mediaFacts: (paths) => ipcRenderer.invoke(C.mediaFacts, paths),
  reviews: () => ipcRenderer.invoke(C.reviews),
  pullEvents: () => ipcRenderer.invoke(C.pullEvents),
  startPull: (event, acceptedOnly, dir, bandwidth = 0) =>
    ipcRenderer.invoke(C.startPull, event, acceptedOnly, dir, bandwidth),
  cancelPull: () => ipcRenderer.invoke(C.cancelPull),
  retryNow: () => ipcRenderer.invoke(C.retryNow),
  pauseFile: (jobId, key) => ipcRenderer.invoke(C.pauseFile, jobId, key),
  resumeFile: (jobId, key) => ipcRenderer.invoke(C.resumeFile, jobId, key),
  pauseAll: () => ipcRenderer.invoke(C.pauseAll),
  resumeAll: () => ipcRenderer.invoke(C.resumeAll),
  setSettings: (settings) => ipcRenderer.invoke(C.setSettings, settings),
  snapshot: () => ipcRenderer.invoke(C.snapshot),
  onChange: (listener) => {
    const wrapped = (_event: unknown, snapshot: Parameters<typeof listener>[0]) => listener(snapshot);
    ipcRenderer.on(C.changed, wrapped);
    return () => void ipcRenderer.removeListener(C.changed, wrapped);
  },
  pathForFile: (file) => webUtils.getPathForFile(file),
  chooseFolder: (purpose) => ipcRenderer.invoke(C.chooseFolder, purpose),
  addWatch: (form, folder) => ipcRenderer.invoke(C.addWatch, form, folder),
  removeWatch: (id) => ipcRenderer.invoke(C.removeWatch, id),
  showLog: () => ipcRenderer.invoke(C.showLog),
  cloudProviders: () => ipcRenderer.invoke(C.cloudProviders),
  connectCloud: (provider) => ipcRenderer.invoke(C.connectCloud, provider),
  cancelConnect: (provider) => ipcRenderer.invoke(C.cancelConnect, provider),
  disconnectCloud: (provider) => ipcRenderer.invoke(C.disconnectCloud, provider),
  browseCloud: (provider, folderId) => ipcRenderer.invoke(C.browseCloud, provider, folderId),
  searchCloud: (provider, query) => ipcRenderer.invoke(C.searchCloud, provider, query),
};

contextBridge.exposeInMainWorld('avUpload', api);
