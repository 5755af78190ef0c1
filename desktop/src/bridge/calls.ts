/**
 * The DesktopApi calls the bridge serves over HTTP, relayed to the engine process as the main process
 * relays the window's IPC (the engine checks the arguments: engine-host/calls.ts). onChange is the event
 * stream (server.ts); pathForFile and chooseFolder stay in the page (client/shim.ts), since the bridge
 * has no windows or dialogs of its own.
 */
import type { DesktopApi } from '../main/api.js';
import type { EngineClient } from '../engine-host/client.js';
import { ENGINE_METHODS } from '../engine-host/calls.js';
import type { CloudCalls } from '../main/cloud-calls.js';

export type BridgeMethod = Exclude<keyof DesktopApi, 'onChange' | 'pathForFile' | 'chooseFolder'>;

type Calls = {
  [K in BridgeMethod]: (args: unknown[]) => ReturnType<DesktopApi[K]> | Awaited<ReturnType<DesktopApi[K]>>;
};

/**
 * `openAtLogin` has no meaning outside the installed app; the bridge keeps the choice in memory so the
 * settings screen behaves as it does in the app. showLog answers the log file's path (the bridge has no
 * file manager to open), or null when the bridge keeps no log.
 */
export function bridgeCalls(
  engine: Pick<EngineClient, 'call'>,
  options: {
    login?: { openAtLogin: boolean };
    logPath?: () => string | null;
    /** The cloud-account calls, answered in the bridge's process as the app's main process does. */
    cloud?: CloudCalls;
  } = {},
): Calls {
  const login = options.login ?? { openAtLogin: false };
  const relayed = Object.fromEntries(
    ENGINE_METHODS.map((method) => [method, (args: unknown[]) => engine.call(method, args)]),
  ) as Omit<Calls, 'setSettings' | 'showLog' | keyof CloudCalls>;
  const noCloud = () => Promise.reject(new Error('Cloud accounts are not available in this bridge.'));
  const cloud: CloudCalls = options.cloud ?? {
    cloudProviders: () => Promise.resolve([]),
    connectCloud: noCloud,
    cancelConnect: () => Promise.resolve(),
    disconnectCloud: noCloud,
    browseCloud: noCloud,
    searchCloud: noCloud,
  };
  return {
    ...relayed,
    ...cloud,
    setSettings: async ([raw]) => {
      const { openAtLogin, ...rest } = (typeof raw === 'object' && raw !== null ? raw : {}) as {
        openAtLogin?: unknown;
      };
      if (typeof openAtLogin === 'boolean') login.openAtLogin = openAtLogin;
      return { ...(await engine.call('setSettings', [rest])), openAtLogin: login.openAtLogin };
    },
    showLog: () => options.logPath?.() ?? null,
  };
}

export function isBridgeMethod(name: string, calls: Calls): name is BridgeMethod {
  return Object.hasOwn(calls, name);
}
