/**
 * The Electron main process: one window, a tray icon with the overall progress, notifications
 * when a submission is sent or fails, a single-instance lock, start at login, and uploads that go on
 * when the window is closed (quit from the tray). Security (Electron's checklist): contextIsolation,
 * sandbox, no nodeIntegration, no remote content, a strict CSP, navigation and new windows refused,
 * permissions denied, and every IPC message's sender checked against the app's own page.
 *
 * The upload engine runs in a utilityProcess of its own (src/engine-host): this process
 * relays the window's calls to it, shows what it reports, and keeps what needs Electron (the token
 * vault on safeStorage, dialogs, the file manager, login items). A crashed engine is started again on
 * the saved queue.
 *
 * The connected cloud accounts live here too (CloudAccounts, their refresh tokens sealed with
 * safeStorage in electron-store): Settings → Accounts and the browse panel call them directly, and the
 * engine process asks here for each access token an import needs (engine-host/token-relay.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  safeStorage,
  session,
  shell,
  Tray,
  utilityProcess,
} from 'electron';
import type { IpcMainInvokeEvent } from 'electron';
import Store from 'electron-store';
import electronUpdater from 'electron-updater';
import {
  CloudAccounts,
  cloudSettings,
  keyValueAccountStore,
  safeStorageCipher,
} from '../engine/cloud/index.js';
import { DailyLog, JsonFileStore } from '../engine/index.js';
import type { EngineState } from '../engine/index.js';
import { EngineClient } from '../engine-host/client.js';
import type { EngineMethod } from '../engine-host/calls.js';
import { ENGINE_V8_FLAGS } from '../engine-host/protocol.js';
import type { EngineProcess, SavedSession } from '../engine-host/protocol.js';
import { CHANNELS } from './api.js';
import { cloudCalls } from './cloud-calls.js';
import type { CloudMethod } from './cloud-calls.js';

// electron-updater is CommonJS: its named exports come through the default import.
const { autoUpdater } = electronUpdater;
const here = path.dirname(fileURLToPath(import.meta.url));
const RENDERER = path.join(here, '..', 'renderer', 'index.html');
const PRELOAD = path.join(here, '..', 'preload', 'index.cjs');
const ENGINE_ENTRY = path.join(here, '..', 'engine-host', 'child.js');
const RENDERER_URL = pathToFileURL(RENDERER).href;
export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'none'; " +
  "form-action 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";
const DEFAULT_SERVER = process.env.AV_UPLOAD_SERVER ?? 'https://uploads.example.com';

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  const store = new Store<Record<string, unknown>>({ name: 'av-upload' });

  /**
   * The token encrypted with the operating system's keychain (safeStorage) inside electron-store. The
   * engine process gets it decrypted at its start and sends a new one here to be stored
   * (docs/decisions.md 'The engine in its own process').
   */
  const vault = {
    read(): SavedSession | null {
      const saved = store.get('signedIn') as SavedSession | undefined;
      if (!saved || !safeStorage.isEncryptionAvailable()) return null;
      try {
        return { ...saved, token: safeStorage.decryptString(Buffer.from(saved.token, 'base64')) };
      } catch {
        return null;
      }
    },
    write(value: SavedSession | null): void {
      if (value === null) return store.delete('signedIn');
      if (!safeStorage.isEncryptionAvailable())
        throw new Error('No secure storage is available for the sign-in token.');
      store.set('signedIn', { ...value, token: safeStorage.encryptString(value.token).toString('base64') });
    },
  };

  let window: BrowserWindow | null = null;
  let tray: Tray | null = null;
  let engine: EngineClient;
  let engineStopped = false;
  let quitting = false;

  const showWindow = () => {
    if (!window) createWindow();
    if (window?.isMinimized()) window.restore();
    window?.show();
    window?.focus();
  };

  function createWindow(): void {
    window = new BrowserWindow({
      width: 1000,
      height: 720,
      minWidth: 360,
      minHeight: 500,
      show: false,
      title: 'AV Uploader',
      webPreferences: {
        preload: PRELOAD,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        experimentalFeatures: false,
        webviewTag: false,
        spellcheck: false,
        disableBlinkFeatures: 'Auxclick',
      },
    });
    window.once('ready-to-show', () => window?.show());
    // Closing the window hides it: uploads go on; quit from the tray.
    window.on('close', (event) => {
      if (!quitting) {
        event.preventDefault();
        window?.hide();
      }
    });
    window.on('closed', () => (window = null));
    void window.loadFile(RENDERER);
  }

  /**
   * electron-updater reads the feed electron-builder wrote into the package (build/electron-builder.yml,
   * 'publish'), downloads a newer version in the background and installs it when the app quits; every
   * six hours it looks again. Only a packaged app has that feed; an unreachable feed is logged, not shown.
   */
  function checkForUpdates(): void {
    if (!app.isPackaged) return;
    const check = () =>
      void autoUpdater.checkForUpdatesAndNotify().catch((error: unknown) => {
        console.warn('Update check failed:', error instanceof Error ? error.message : error);
      });
    check();
    setInterval(check, 6 * 60 * 60 * 1000).unref();
  }

  /** Only the app's own page may call the API. */
  const trusted = (event: IpcMainInvokeEvent) =>
    event.senderFrame?.url === RENDERER_URL && event.sender === window?.webContents;
  function handle<A extends unknown[], R>(channel: string, fn: (...args: A) => R | Promise<R>): void {
    ipcMain.handle(channel, (event, ...args: unknown[]) => {
      if (!trusted(event)) throw new Error('Refused: not the app window.');
      return fn(...(args as A));
    });
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  /** A window call answered by the engine process; its arguments are checked there (engine-host/calls.ts). */
  const relay = (channel: string, method: EngineMethod) =>
    handle(channel, (...args: unknown[]) => engine.call(method, args));

  /**
   * The queue lives in a JSON file the engine process writes itself (electron-store needs the main
   * process). A queue an earlier version kept in electron-store moves there once.
   */
  function engineStateFile(): string {
    const file = path.join(app.getPath('userData'), 'engine-state.json');
    const earlier = store.get('engine') as EngineState | undefined;
    if (earlier?.version === 1 && !existsSync(file)) new JsonFileStore(file).save(earlier);
    if (earlier !== undefined) store.delete('engine');
    return file;
  }

  /** The engine's process: Chromium's utility process with Node, capped like the CLI. */
  function spawnEngine(): EngineProcess {
    const child = utilityProcess.fork(ENGINE_ENTRY, [], {
      execArgv: ENGINE_V8_FLAGS,
      serviceName: 'AV Uploader engine',
      stdio: 'inherit',
    });
    return {
      post: (message) => child.postMessage(message),
      onMessage: (listener) => void child.on('message', listener),
      onExit: (listener) => void child.once('exit', (code) => listener({ code, signal: null })),
      kill: () => void child.kill(),
    };
  }

  function updateTray(): void {
    const snap = engine.snapshot();
    const text = snap.active
      ? `Uploading ${snap.overall.percent}%`
      : snap.jobs.some((j) => j.state === 'failed')
        ? 'Upload stopped: open the app'
        : 'AV Uploader: idle';
    tray?.setToolTip(text);
    if (process.platform === 'darwin') tray?.setTitle(snap.active ? `${snap.overall.percent}%` : '');
    window?.setProgressBar(snap.active ? snap.overall.percent / 100 : -1);
  }

  void app.whenReady().then(() => {
    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
    });
    session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
    app.on('web-contents-created', (_event, contents) => {
      contents.on('will-navigate', (event) => event.preventDefault());
      contents.on('will-attach-webview', (event) => event.preventDefault());
      contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    });

    const logDir = path.join(app.getPath('userData'), 'logs');
    const log = new DailyLog(logDir);
    log.write('info', 'app started', { version: app.getVersion(), platform: process.platform });
    const oauthPort = Number(process.env.AV_OAUTH_PORT);
    const accounts = new CloudAccounts({
      store: keyValueAccountStore(store, 'cloudAccounts'),
      cipher: safeStorageCipher(safeStorage),
      settings: cloudSettings(process.env),
      loopbackPort: Number.isInteger(oauthPort) && oauthPort > 0 ? oauthPort : undefined,
      // The address is the provider's sign-in page built from its settings (config.ts), never the window's.
      openBrowser: (url, provider) => {
        // Reviewed (electronegativity OPEN_EXTERNAL): a web address only, whatever a setting says.
        if (!/^https?:\/\//i.test(url)) throw new Error(`Not a sign-in page: ${url}`);
        log.write('info', 'cloud sign-in opened in the browser', { provider });
        return shell.openExternal(url);
      },
    });
    engine = new EngineClient({
      cloud: accounts,
      spawn: spawnEngine,
      config: {
        defaultServer: str(store.get('server')) || DEFAULT_SERVER,
        stateFile: engineStateFile(),
        logDir,
      },
      vault,
    });
    const showLog = () => {
      log.write('info', 'log file shown');
      shell.showItemInFolder(log.path());
      return log.path();
    };
    engine.onChange((snap) => {
      window?.webContents.send(CHANNELS.changed, snap);
      updateTray();
    });
    engine.onNotice((event) => {
      if (!Notification.isSupported()) return;
      if (event.type === 'submitted') {
        new Notification({
          title: 'Upload sent',
          body: `${event.entry.files.length} file(s) sent for ${event.entry.formType}.`,
        }).show();
      } else {
        new Notification({ title: 'Upload stopped', body: event.message }).show();
      }
    });
    engine.onCrash((crash) => {
      log.write('error', 'engine process ended unexpectedly', { ...crash });
      // Once per crash loop, not at every attempt.
      if (crash.inARow === 1 && Notification.isSupported()) {
        new Notification({
          title: 'Uploads restarting',
          body: 'The upload engine stopped unexpectedly and is starting again. Your queue is kept.',
        }).show();
      }
    });
    engine.start();

    relay(CHANNELS.session, 'session');
    relay(CHANNELS.login, 'login');
    relay(CHANNELS.logout, 'logout');
    relay(CHANNELS.submit, 'submit');
    relay(CHANNELS.checkPaths, 'checkPaths');
    relay(CHANNELS.uploadEvents, 'uploadEvents');
    relay(CHANNELS.mediaFacts, 'mediaFacts');
    relay(CHANNELS.reviews, 'reviews');
    relay(CHANNELS.pullEvents, 'pullEvents');
    relay(CHANNELS.startPull, 'startPull');
    relay(CHANNELS.cancelPull, 'cancelPull');
    relay(CHANNELS.retryNow, 'retryNow');
    relay(CHANNELS.pauseFile, 'pauseFile');
    relay(CHANNELS.resumeFile, 'resumeFile');
    relay(CHANNELS.pauseAll, 'pauseAll');
    relay(CHANNELS.resumeAll, 'resumeAll');
    relay(CHANNELS.snapshot, 'snapshot');
    relay(CHANNELS.addWatch, 'addWatch');
    relay(CHANNELS.removeWatch, 'removeWatch');
    handle(CHANNELS.setSettings, async (raw: unknown) => {
      const { openAtLogin, ...rest } = (typeof raw === 'object' && raw !== null ? raw : {}) as {
        openAtLogin?: unknown;
      };
      if (typeof openAtLogin === 'boolean') app.setLoginItemSettings({ openAtLogin });
      const settings = await engine.call('setSettings', [rest]);
      return { ...settings, openAtLogin: app.getLoginItemSettings().openAtLogin };
    });
    handle(CHANNELS.chooseFolder, async (purpose: unknown) => {
      const options = {
        title: purpose === 'pull' ? 'Choose a folder to pull the event into' : 'Choose a folder to watch',
        properties: ['openDirectory' as const, 'createDirectory' as const],
      };
      const chosen = window
        ? await dialog.showOpenDialog(window, options)
        : await dialog.showOpenDialog(options);
      return chosen.canceled ? null : (chosen.filePaths[0] ?? null);
    });
    handle(CHANNELS.showLog, () => showLog());
    const cloud = cloudCalls(accounts);
    const cloudHandle = (method: CloudMethod) =>
      handle<unknown[], unknown>(CHANNELS[method], (...args) => cloud[method](args));
    cloudHandle('cloudProviders');
    cloudHandle('connectCloud');
    cloudHandle('cancelConnect');
    cloudHandle('disconnectCloud');
    cloudHandle('browseCloud');
    cloudHandle('searchCloud');

    // desktop/assets travels in the package (electron-builder.yml); tray@2x.png is picked on HiDPI screens.
    tray = new Tray(nativeImage.createFromPath(path.join(here, '..', '..', 'assets', 'tray.png')));
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Open AV Uploader', click: showWindow },
        { label: 'Pause all', click: () => void engine.call('pauseAll').catch(() => undefined) },
        { label: 'Resume all', click: () => void engine.call('resumeAll').catch(() => undefined) },
        { type: 'separator' },
        { label: 'Show log file', click: showLog },
        { type: 'separator' },
        {
          label: 'Quit',
          click: () => {
            quitting = true;
            app.quit();
          },
        },
      ]),
    );
    tray.on('click', showWindow);
    updateTray();
    createWindow();
    checkForUpdates();
  });

  app.on('second-instance', showWindow);
  app.on('activate', showWindow);
  // Uploads go on with every window closed.
  app.on('window-all-closed', () => undefined);
  // The engine saves its queue and exits before the app does (Electron does not wait for a promise).
  app.on('before-quit', (event) => {
    quitting = true;
    if (engineStopped || !engine) return;
    event.preventDefault();
    void engine.stop().finally(() => {
      engineStopped = true;
      app.quit();
    });
  });
}
