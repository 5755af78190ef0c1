/**
 * The engine process's side: a DesktopService built from the parent's 'init', answering 'call' messages
 * and pushing snapshots ('changed'), notices ('event') and new sessions for the vault ('vault'); cloud
 * imports ask the parent for access tokens ('token', token-relay.ts). The
 * port is abstract (host-port.ts picks Electron's parentPort or a forked child's IPC channel).
 */
import { DailyLog, JsonFileStore } from '../engine/index.js';
import { DesktopService } from '../main/service.js';
import type { TokenVault } from '../main/service.js';
import { engineCalls, isEngineMethod } from './calls.js';
import type { EngineCalls } from './calls.js';
import { isToHost } from './protocol.js';
import type { HostConfig, HostPort, SavedSession } from './protocol.js';
import { relayedTokenSource } from './token-relay.js';

/**
 * The session in this process's memory, each change sent to the parent, whose vault encrypts it with
 * the operating system's keychain (safeStorage exists only in Electron's main process).
 */
function relayedVault(port: HostPort, initial: SavedSession | null): TokenVault {
  let session = initial;
  return {
    read: () => session,
    write: (value) => {
      session = value;
      port.post({ type: 'vault', session: value });
    },
  };
}

export interface Host {
  /** Resolves when a 'close' message has stopped the service (the queue saved as it is). */
  closed: Promise<void>;
  /** The daily log once 'init' has arrived (for the crash handler's last line). */
  log(): DailyLog | null;
}

export function serveEngine(port: HostPort): Host {
  let service: DesktopService | null = null;
  let calls: EngineCalls | null = null;
  let log: DailyLog | null = null;
  let closing: Promise<void> | null = null;
  let onClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  // Cloud imports ask the parent for each access token: the accounts live there.
  const tokens = relayedTokenSource((request) => port.post(request));

  function init(config: HostConfig): void {
    if (service) return;
    log = config.logDir ? new DailyLog(config.logDir) : null;
    log?.write('info', 'engine process started', { pid: process.pid, execArgv: process.execArgv });
    service = new DesktopService(
      relayedVault(port, config.session),
      new JsonFileStore(config.stateFile),
      config.defaultServer,
      log ?? undefined,
      tokens.source,
    );
    calls = engineCalls(service);
    service.onChange((snapshot) => port.post({ type: 'changed', snapshot }));
    service.onNotice((event) => port.post({ type: 'event', event }));
    port.post({ type: 'ready', pid: process.pid, execArgv: process.execArgv });
    // The queue as this process found it, so a window open across a restart shows it at once.
    port.post({ type: 'changed', snapshot: service.snapshot() });
  }

  async function call(id: number, method: unknown, args: unknown[]): Promise<void> {
    try {
      if (!calls) throw new Error('The upload engine has not started yet.');
      if (!isEngineMethod(method)) throw new Error(`No such call: ${String(method)}`);
      const value = await (calls[method] as (args: unknown[]) => unknown)(args);
      port.post({ type: 'result', id, ok: true, value: value ?? null });
    } catch (error) {
      port.post({ type: 'result', id, ok: false, message: (error as Error).message });
    }
  }

  port.listen((message) => {
    if (!isToHost(message)) return;
    if (message.type === 'init') init(message.config);
    else if (message.type === 'call')
      void call(message.id, message.method, Array.isArray(message.args) ? message.args : []);
    else if (message.type === 'token') tokens.answer(message);
    else if (message.type === 'close') {
      closing ??= (service?.close() ?? Promise.resolve()).then(() => {
        log?.write('info', 'engine process stopped');
        onClosed();
      });
    }
  });

  return { closed, log: () => log };
}
