/**
 * The DesktopService calls the engine process answers, by name, each taking the raw argument list of a
 * message. Arguments are checked here, where they are used (strings as strings, settings as numbers,
 * forms as objects of strings), whatever relayed them: the main process from the window's IPC, or the
 * development bridge from HTTP. The shared schemas judge the rest.
 */
import { CLOUD_PROVIDERS } from '@avp/shared';
import type { CloudItem } from '../engine/cloud/types.js';
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

const nullable = <T>(v: unknown, type: 'string' | 'number'): T | null =>
  typeof v === type ? (v as T) : null;

/**
 * Files picked in the browse panel, as the accounts listed them. Each is checked for shape (a provider
 * of ours, an id and a name); the server asks the provider itself for the file with the account's
 * token, so a made-up id reaches nothing the account cannot read. Anything else is dropped.
 */
export function cloudItemsInput(raw: unknown): CloudItem[] {
  if (!Array.isArray(raw)) return [];
  const items: CloudItem[] = [];
  for (const value of raw as unknown[]) {
    if (typeof value !== 'object' || value === null) continue;
    const v = value as Record<string, unknown>;
    if (!(CLOUD_PROVIDERS as readonly unknown[]).includes(v.provider)) continue;
    if (typeof v.id !== 'string' || !v.id || typeof v.name !== 'string' || !v.name) continue;
    if (typeof v.ref !== 'string' || !v.ref) continue;
    const size = nullable<number>(v.size, 'number');
    items.push({
      provider: v.provider as CloudItem['provider'],
      id: v.id,
      ...(v.provider === 'onedrive' && typeof v.driveId === 'string' && v.driveId
        ? { driveId: v.driveId }
        : {}),
      name: v.name,
      folder: v.folder === true,
      size: size !== null && Number.isSafeInteger(size) && size >= 0 ? size : null,
      modifiedAt: nullable<string>(v.modifiedAt, 'string'),
      mimeType: nullable<string>(v.mimeType, 'string'),
      path: nullable<string>(v.path, 'string'),
      ref: v.ref,
    });
  }
  return items;
}

export function engineCalls(service: DesktopService) {
  return {
    session: () => service.session(),
    login: ([server, email, password]: unknown[]) => service.login(str(server), str(email), str(password)),
    logout: () => service.logout(),
    submit: ([form, chosen, picked]: unknown[]) =>
      service.submit(formInput(form), paths(chosen), cloudItemsInput(picked)),
    checkPaths: ([chosen]: unknown[]) => service.checkPaths(paths(chosen)),
    uploadEvents: () => service.uploadEvents(),
    mediaFacts: ([chosen]: unknown[]) => service.mediaFacts(paths(chosen)),
    reviews: () => service.reviews(),
    pullEvents: () => service.pullEvents(),
    startPull: ([event, acceptedOnly, dir, bandwidth]: unknown[]) =>
      service.startPull(
        str(event),
        acceptedOnly === true,
        str(dir),
        typeof bandwidth === 'number' && Number.isFinite(bandwidth) && bandwidth > 0 ? bandwidth : 0,
      ),
    cancelPull: () => service.cancelPull(),
    retryNow: () => service.retryNow(),
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
  'checkPaths',
  'uploadEvents',
  'mediaFacts',
  'reviews',
  'pullEvents',
  'startPull',
  'cancelPull',
  'retryNow',
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
