/**
 * The DesktopApi calls the bridge serves over HTTP, onto a real DesktopService: the same arguments the
 * main process accepts over IPC, checked the same way (strings as strings, settings as numbers), since
 * anything on this machine can reach a port on the loopback. onChange is the event stream (server.ts);
 * pathForFile stays in the page (client/shim.ts).
 */
import type { DesktopApi, FormInput } from '../main/api.js';
import type { EngineSettings } from '../engine/index.js';
import type { DesktopService } from '../main/service.js';

export type BridgeMethod = Exclude<keyof DesktopApi, 'onChange' | 'pathForFile'>;

type Calls = {
  [K in BridgeMethod]: (args: unknown[]) => ReturnType<DesktopApi[K]> | Awaited<ReturnType<DesktopApi[K]>>;
};

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A form from the page: an object of strings (anything else is dropped; the shared schemas judge the rest). */
function formInput(raw: unknown): FormInput {
  // Typed as the contract says; a missing or wrong form_type is the shared schema's to report.
  const form = {} as FormInput;
  if (typeof raw !== 'object' || raw === null) return form;
  for (const [key, value] of Object.entries(raw)) if (typeof value === 'string') form[key] = value;
  return form;
}

/**
 * `openAtLogin` has no meaning outside the installed app; the bridge keeps the choice in memory so the
 * settings screen behaves as it does in the app.
 */
export function bridgeCalls(
  service: DesktopService,
  login = { openAtLogin: false },
  /** Stands in for the system's folder chooser (the bridge has no windows of its own). */
  chosenFolder: () => string | null = () => process.env.AV_BRIDGE_FOLDER ?? null,
): Calls {
  return {
    session: () => service.session(),
    login: ([server, email, password]) => service.login(str(server), str(email), str(password)),
    logout: () => service.logout(),
    submit: ([form, paths]) =>
      service.submit(
        formInput(form),
        Array.isArray(paths) ? paths.filter((p): p is string => typeof p === 'string') : [],
      ),
    pauseFile: ([jobId, key]) => service.pauseFile(str(jobId), str(key)),
    resumeFile: ([jobId, key]) => service.resumeFile(str(jobId), str(key)),
    pauseAll: () => service.pauseAll(),
    resumeAll: () => service.resumeAll(),
    snapshot: () => service.snapshot(),
    setSettings: ([raw]) => {
      const settings = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
      if (typeof settings.openAtLogin === 'boolean') login.openAtLogin = settings.openAtLogin;
      const engine = service.setSettings({
        ...(typeof settings.partConcurrency === 'number'
          ? { partConcurrency: settings.partConcurrency }
          : {}),
        ...(typeof settings.bandwidthBytesPerSecond === 'number'
          ? { bandwidthBytesPerSecond: settings.bandwidthBytesPerSecond }
          : {}),
        ...(Array.isArray(settings.schedule)
          ? { schedule: settings.schedule as EngineSettings['schedule'] }
          : {}),
      });
      return { ...engine, openAtLogin: login.openAtLogin };
    },
    chooseFolder: () => chosenFolder(),
    addWatch: ([form, folder]) => service.addWatch(formInput(form), str(folder)),
    removeWatch: ([id]) => service.removeWatch(str(id)),
    showLog: () => undefined,
  };
}

export function isBridgeMethod(name: string, calls: Calls): name is BridgeMethod {
  return Object.hasOwn(calls, name);
}
