/**
 * The engine in its own process: the compiled entry point forked as the app forks its
 * utilityProcess (same V8 flags, structured-clone messages), driven through the EngineClient that the
 * main process uses, against the real API. Sign-in with the session handed to the parent's vault, an
 * upload sent through the child with its change events and notice, and a child killed mid-upload:
 * the crash is reported, a new child starts on the saved queue and finishes the upload.
 */
import { execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopSnapshot } from '../src/main/api.js';
import { ENGINE_STOPPED, EngineClient } from '../src/engine-host/client.js';
import type { Crash } from '../src/engine-host/client.js';
import { forkEngine } from '../src/engine-host/fork-engine.js';
import type { NoticeEvent, SavedSession } from '../src/engine-host/protocol.js';
import { DESKTOP_DIR, PASSWORD, registerClient, sha256File, startApi, tempDir } from './helpers/api.js';
import type { ApiProcess } from './helpers/api.js';

const TSC = path.join(DESKTOP_DIR, '..', 'node_modules', 'typescript', 'bin', 'tsc');
const ENTRY = path.join(DESKTOP_DIR, 'dist', 'engine-host', 'child.js');
const EMAIL = 'grace@example.com';
const MIB = 1024 * 1024;

let api: ApiProcess;
let work: { dir: string; remove(): Promise<void> };

beforeAll(async () => {
  // The child runs the compiled output: build it (incremental, quick when up to date).
  await promisify(execFile)(process.execPath, [TSC, '-b', path.join(DESKTOP_DIR, 'tsconfig.json')]);
  api = await startApi();
  await registerClient(api.url, EMAIL);
  work = await tempDir();
});

afterAll(async () => {
  await api?.close();
  await work?.remove();
});

interface Harness {
  client: EngineClient;
  children: ChildProcess[];
  vaultWrites: (SavedSession | null)[];
  snapshots: DesktopSnapshot[];
  notices: NoticeEvent[];
  crashes: Crash[];
  /** Resolves with the first snapshot pushed (from now on) that passes the test. */
  until(test: (snapshot: DesktopSnapshot) => boolean, timeoutMs?: number): Promise<DesktopSnapshot>;
}

let harness: Harness | null = null;

function start(name: string): Harness {
  const children: ChildProcess[] = [];
  let session: SavedSession | null = null;
  const vaultWrites: (SavedSession | null)[] = [];
  const client = new EngineClient({
    spawn: () => forkEngine(ENTRY, (child) => children.push(child)),
    config: {
      defaultServer: api.url,
      stateFile: path.join(work.dir, name, 'engine-state.json'),
      logDir: path.join(work.dir, name, 'logs'),
    },
    vault: {
      read: () => session,
      write: (value) => {
        session = value;
        vaultWrites.push(value);
      },
    },
    restartDelay: () => 0,
  });
  const snapshots: DesktopSnapshot[] = [];
  const notices: NoticeEvent[] = [];
  const crashes: Crash[] = [];
  client.onChange((snapshot) => snapshots.push(snapshot));
  client.onNotice((event) => notices.push(event));
  client.onCrash((crash) => crashes.push(crash));
  client.start();
  harness = {
    client,
    children,
    vaultWrites,
    snapshots,
    notices,
    crashes,
    until: (test, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          off();
          reject(
            new Error(
              `no such snapshot within ${timeoutMs} ms; the last: ${JSON.stringify(snapshots.at(-1))}`,
            ),
          );
        }, timeoutMs);
        const off = client.onChange((snapshot) => {
          if (!test(snapshot)) return;
          clearTimeout(timer);
          off();
          resolve(snapshot);
        });
      }),
  };
  return harness;
}

afterEach(async () => {
  await harness?.client.stop();
  harness = null;
});

async function makeFile(name: string, size: number): Promise<string> {
  const file = path.join(work.dir, name);
  await writeFile(file, randomBytes(size));
  return file;
}

const SPONSOR = { form_type: 'sponsor', event_name: 'Expo 2027', sponsor_company: 'Acme AV' } as const;

describe('the engine process', () => {
  it('runs with the CLI’s V8 flag, signs in through the parent’s vault and sends an upload', async () => {
    const h = start('upload');
    const ready = new Promise<{ pid: number; execArgv: string[] }>((resolve) => h.client.onReady(resolve));
    const info = await ready;
    expect(info.execArgv).toContain('--max-semi-space-size=4');
    expect(info.pid).not.toBe(process.pid);

    expect(await h.client.call('session')).toBeNull();
    // The spec's message comes back across the process boundary as the result, not as an exception.
    expect(await h.client.call('login', [api.url, EMAIL, 'wrong password'])).toMatchObject({ ok: false });
    const signedIn = await h.client.call('login', [api.url, EMAIL, PASSWORD]);
    expect(signedIn).toEqual({
      ok: true,
      value: { server: api.url, email: EMAIL, expiresAt: expect.any(String) },
    });
    // The token went to the parent's vault; the window only ever sees the session without it.
    expect(h.vaultWrites).toEqual([expect.objectContaining({ email: EMAIL, token: expect.any(String) })]);
    expect(JSON.stringify(signedIn)).not.toContain(h.vaultWrites[0]!.token);

    const file = await makeFile('logo.png', 300 * 1024);
    const sent = h.until((s) => s.history.some((e) => e.files.some((f) => f.name === 'logo.png')));
    expect(await h.client.call('submit', [SPONSOR, [file]])).toEqual({ ok: true });
    const snapshot = await sent;
    expect(snapshot.history[0]!.files[0]!.sha256).toBe(await sha256File(file));
    expect(h.notices).toContainEqual(expect.objectContaining({ type: 'submitted' }));
    // The tray's copy is the latest pushed.
    expect(h.client.snapshot().history).toHaveLength(1);

    // Arguments are checked in the child whatever relayed them: a form that is not an object is refused
    // with the shared schema's message, a call the service does not have with an error.
    expect(await h.client.call('submit', ['not a form', [file]])).toMatchObject({ ok: false });
    await expect(
      (h.client.call as (method: string, args: unknown[]) => Promise<unknown>)('close', []),
    ).rejects.toThrow('No such call: close');

    await h.client.call('logout');
    expect(h.vaultWrites.at(-1)).toBeNull();
    expect(h.crashes).toEqual([]);
  });

  it('reports a crash, starts a new engine on the saved queue and finishes the upload', async () => {
    const h = start('crash');
    expect(await h.client.call('login', [api.url, EMAIL, PASSWORD])).toMatchObject({ ok: true });
    // Two parts (6 MiB and 1 MiB), one at a time at 1 MiB/s: the child dies once the first is stored,
    // while the second is on its way.
    await h.client.call('setSettings', [{ bandwidthBytesPerSecond: MIB, partConcurrency: 1 }]);
    const file = await makeFile('keynote.mov', 7 * MIB);
    const moving = h.until((s) => s.overall.sentBytes >= 6 * MIB && s.active);
    expect(await h.client.call('submit', [SPONSOR, [file]])).toEqual({ ok: true });
    await moving;

    const first = h.children[0]!;
    const restarted = new Promise<{ pid: number }>((resolve) => h.client.onReady(resolve));
    // A call in flight when the child dies is answered with the restart message, not left hanging. The
    // child is stopped first, so it cannot answer the call in the moment before the kill lands.
    if (process.platform !== 'win32') first.kill('SIGSTOP');
    const inFlight = h.client.call('resumeAll');
    first.kill('SIGKILL');
    await expect(inFlight).rejects.toThrow(ENGINE_STOPPED);
    const next = await restarted;
    expect(h.crashes).toEqual([{ code: null, signal: 'SIGKILL', inARow: 1, restartInMs: 0 }]);
    expect(next.pid).not.toBe(first.pid);

    // The new engine found the session in the parent's vault and the job in the saved queue.
    expect(await h.client.call('session')).toMatchObject({ email: EMAIL });
    const resumed = await h.client.call('snapshot');
    expect(resumed.jobs).toHaveLength(1);
    expect(resumed.settings.bandwidthBytesPerSecond).toBe(MIB);
    // The part the server holds is not sent again: the new engine starts from the server's list.
    await h.until((s) => s.overall.sentBytes >= 6 * MIB);
    const sent = h.until((s) => s.history.length === 1);
    await h.client.call('setSettings', [{ bandwidthBytesPerSecond: 0 }]);
    const done = await sent;
    expect(done.jobs).toEqual([]);
    expect(done.history[0]!.files[0]!.sha256).toBe(await sha256File(file));
  });

  it('stops its child on stop(): the queue is saved and no restart follows', async () => {
    const h = start('stop');
    await h.client.call('session');
    const child = h.children[0]!;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await h.client.stop();
    expect(await exited).toBe(0);
    expect(h.crashes).toEqual([]);
    expect(h.children).toHaveLength(1);
    await expect(h.client.call('session')).rejects.toThrow('The upload engine is stopping.');
  });
});
