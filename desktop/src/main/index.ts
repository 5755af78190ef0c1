/**
 * The Electron main process (issue 9): one window, a tray icon with the overall progress, notifications
 * when a submission is sent or fails, a single-instance lock, start at login, and uploads that go on
 * when the window is closed (quit from the tray). Security (Electron's checklist): contextIsolation,
 * sandbox, no nodeIntegration, no remote content, a strict CSP, navigation and new windows refused,
 * permissions denied, and every IPC message's sender checked against the app's own page.
 */
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
} from 'electron';
import type { IpcMainInvokeEvent } from 'electron';
import Store from 'electron-store';
import electronUpdater from 'electron-updater';
import { DailyLog, keyValueStore } from '../engine/index.js';
import type { EngineSettings } from '../engine/index.js';
import { CHANNELS } from './api.js';
import type { FormInput } from './api.js';
import { DesktopService } from './service.js';
import type { TokenVault } from './service.js';

// electron-updater is CommonJS: its named exports come through the default import.
const { autoUpdater } = electronUpdater;
const here = path.dirname(fileURLToPath(import.meta.url));
const RENDERER = path.join(here, '..', 'renderer', 'index.html');
const PRELOAD = path.join(here, '..', 'preload', 'index.cjs');
const RENDERER_URL = pathToFileURL(RENDERER).href;
export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'none'; " +
  "form-action 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";
const DEFAULT_SERVER = process.env.AV_UPLOAD_SERVER ?? 'https://uploads.example.com';

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  const store = new Store<Record<string, unknown>>({ name: 'av-upload' });

  /** The token encrypted with the operating system's keychain (safeStorage) inside electron-store. */
  const vault: TokenVault = {
    read() {
      const saved = store.get('signedIn') as
        { server: string; email: string; expiresAt: string; token: string } | undefined;
      if (!saved || !safeStorage.isEncryptionAvailable()) return null;
      try {
        return { ...saved, token: safeStorage.decryptString(Buffer.from(saved.token, 'base64')) };
      } catch {
        return null;
      }
    },
    write(value) {
      if (value === null) return store.delete('signedIn');
      if (!safeStorage.isEncryptionAvailable())
        throw new Error('No secure storage is available for the sign-in token.');
      store.set('signedIn', { ...value, token: safeStorage.encryptString(value.token).toString('base64') });
    },
  };

  let window: BrowserWindow | null = null;
  let tray: Tray | null = null;
  let service: DesktopService;
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

  function updateTray(): void {
    const snap = service.snapshot();
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

    const log = new DailyLog(path.join(app.getPath('userData'), 'logs'));
    log.write('info', 'app started', { version: app.getVersion(), platform: process.platform });
    service = new DesktopService(
      vault,
      keyValueStore(store),
      str(store.get('server')) || DEFAULT_SERVER,
      log,
    );
    const showLog = () => {
      log.write('info', 'log file shown');
      shell.showItemInFolder(log.path());
    };
    service.onChange((snap) => {
      window?.webContents.send(CHANNELS.changed, snap);
      updateTray();
    });
    service.engine?.on((event) => {
      if (event.type === 'submitted' && Notification.isSupported()) {
        new Notification({
          title: 'Upload sent',
          body: `${event.entry.files.length} file(s) sent for ${event.entry.formType}.`,
        }).show();
      } else if (event.type === 'failed' && Notification.isSupported()) {
        new Notification({ title: 'Upload stopped', body: event.message }).show();
      }
    });

    handle(CHANNELS.session, () => service.session());
    handle(CHANNELS.login, (server: unknown, email: unknown, password: unknown) =>
      service.login(str(server), str(email), str(password)),
    );
    handle(CHANNELS.logout, () => service.logout());
    handle(CHANNELS.submit, (form: unknown, paths: unknown) =>
      service.submit(
        form as FormInput,
        Array.isArray(paths) ? paths.filter((p): p is string => typeof p === 'string') : [],
      ),
    );
    handle(CHANNELS.pauseFile, (jobId: unknown, key: unknown) => service.pauseFile(str(jobId), str(key)));
    handle(CHANNELS.resumeFile, (jobId: unknown, key: unknown) => service.resumeFile(str(jobId), str(key)));
    handle(CHANNELS.pauseAll, () => service.pauseAll());
    handle(CHANNELS.resumeAll, () => service.resumeAll());
    handle(CHANNELS.snapshot, () => service.snapshot());
    handle(CHANNELS.setSettings, (raw: unknown) => {
      const settings = (raw ?? {}) as {
        partConcurrency?: unknown;
        bandwidthBytesPerSecond?: unknown;
        schedule?: unknown;
        openAtLogin?: unknown;
      };
      if (typeof settings.openAtLogin === 'boolean')
        app.setLoginItemSettings({ openAtLogin: settings.openAtLogin });
      const engine = service.setSettings({
        ...(typeof settings.partConcurrency === 'number'
          ? { partConcurrency: settings.partConcurrency }
          : {}),
        ...(typeof settings.bandwidthBytesPerSecond === 'number'
          ? { bandwidthBytesPerSecond: settings.bandwidthBytesPerSecond }
          : {}),
        // Each window is checked by the engine's schema; anything else is dropped there.
        ...(Array.isArray(settings.schedule)
          ? { schedule: settings.schedule as EngineSettings['schedule'] }
          : {}),
      });
      return { ...engine, openAtLogin: app.getLoginItemSettings().openAtLogin };
    });
    handle(CHANNELS.chooseFolder, async () => {
      const options = {
        title: 'Choose a folder to watch',
        properties: ['openDirectory' as const, 'createDirectory' as const],
      };
      const chosen = window
        ? await dialog.showOpenDialog(window, options)
        : await dialog.showOpenDialog(options);
      return chosen.canceled ? null : (chosen.filePaths[0] ?? null);
    });
    handle(CHANNELS.addWatch, (form: unknown, folder: unknown) =>
      service.addWatch(form as FormInput, str(folder)),
    );
    handle(CHANNELS.removeWatch, (id: unknown) => service.removeWatch(str(id)));
    handle(CHANNELS.showLog, () => showLog());

    // desktop/assets travels in the package (electron-builder.yml); tray@2x.png is picked on HiDPI screens.
    tray = new Tray(nativeImage.createFromPath(path.join(here, '..', '..', 'assets', 'tray.png')));
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Open AV Uploader', click: showWindow },
        { label: 'Pause all', click: () => service.pauseAll() },
        { label: 'Resume all', click: () => void service.resumeAll() },
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
  app.on('before-quit', () => {
    quitting = true;
  });
  app.on('will-quit', () => void service?.close());
}
