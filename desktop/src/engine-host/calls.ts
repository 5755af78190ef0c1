/**
 * The DesktopService calls the engine process answers, by name, each taking the raw argument list of a
 * message. Arguments are checked here, where they are used (strings as strings, settings as numbers,
 * forms as objects of strings), whatever relayed them: the main process from the window's IPC, or the
 * development bridge from HTTP. The shared schemas judge the rest.
 */
import type { EngineSettings } from '../engine/index.js';
import type { FormInput } from '../main/api.js';
import type { DesktopService } from '../main/service.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A form from the window: an object of strings (anything else is dropped). */
export function formInput(raw: unknown): FormInput {
  // Typed as the contract says; a missing or wrong form_type is the shared schema's to report.
  const form = {} as FormInput;
  if (typeof raw !== 'object' || raw === null) return form;
  for (const [key, value] of Object.entries(raw)) if (typeof value === 'string') form[key] = value;
  return form;
}

/** The engine's settings from a message: numbers and a list of windows (each checked by the engine's schema). */
export function settingsInput(raw: unknown): Partial<EngineSettings> {
  const settings = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  return {
    ...(typeof settings.partConcurrency === 'number' ? { partConcurrency: settings.partConcurrency } : {}),
    ...(typeof settings.bandwidthBytesPerSecond === 'number'
      ? { bandwidthBytesPerSecond: settings.bandwidthBytesPerSecond }
      : {}),
    ...(Array.isArray(settings.schedule)
      ? { schedule: settings.schedule as EngineSettings['schedule'] }
      : {}),
  };
}

const paths = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : [];

export function engineCalls(service: DesktopService) {
  return {
    session: () => service.session(),
    login: ([server, email, password]: unknown[]) => service.login(str(server), str(email), str(password)),
    logout: () => service.logout(),
    submit: ([form, chosen]: unknown[]) => service.submit(formInput(form), paths(chosen)),
    pauseFile: ([jobId, key]: unknown[]) => service.pauseFile(str(jobId), str(key)),
    resumeFile: ([jobId, key]: unknown[]) => service.resumeFile(str(jobId), str(key)),
    pauseAll: () => service.pauseAll(),
    resumeAll: () => service.resumeAll(),
    snapshot: () => service.snapshot(),
    setSettings: ([raw]: unknown[]) => service.setSettings(settingsInput(raw)),
    addWatch: ([form, folder]: unknown[]) => service.addWatch(formInput(form), str(folder)),
    removeWatch: ([id]: unknown[]) => service.removeWatch(str(id)),
  };
}

export type EngineCalls = ReturnType<typeof engineCalls>;
export type EngineMethod = keyof EngineCalls;
export type EngineResult<M extends EngineMethod> = Awaited<ReturnType<EngineCalls[M]>>;

export const ENGINE_METHODS: readonly EngineMethod[] = [
  'session',
  'login',
  'logout',
  'submit',
  'pauseFile',
  'resumeFile',
  'pauseAll',
  'resumeAll',
  'snapshot',
  'setSettings',
  'addWatch',
  'removeWatch',
];

export function isEngineMethod(name: unknown): name is EngineMethod {
  return typeof name === 'string' && (ENGINE_METHODS as readonly string[]).includes(name);
}
