import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Env } from '../../src/config.js';
import { tempDir } from './env.js';
import { startRoundRobinProxy } from './round-robin-proxy.js';
import type { RoundRobinProxy } from './round-robin-proxy.js';
import { freePort } from './smtp.js';

/**
 * Several real API processes (the compiled entry point, `dist/server.js`, as `npm start` runs it; built by the global setup) behind the
 * round-robin proxy, as machines behind a load balancer: each has its own port and DATA_DIR, and shares
 * only what the caller's environment names (the database, the storage, the secrets). Nothing is shared
 * in memory, so whatever works across them works across machines.
 */

const API_DIR = fileURLToPath(new URL('../..', import.meta.url));
const NODE_FLAGS = JSON.parse(readFileSync(path.join(API_DIR, 'node-flags.json'), 'utf8')) as string[];

export type LogLine = Record<string, unknown> & { msg?: string };

export interface ApiProcess {
  readonly index: number;
  readonly port: number;
  /** Where this process listens, for requests meant for it alone. */
  readonly url: string;
  /** Its log (pino's JSON lines, parsed), in order. */
  readonly logs: LogLine[];
  /** Whatever it wrote to standard error. */
  readonly stderr: string[];
  child: ChildProcess;
  /** When it said it was listening (Date.now()). */
  listeningAt: number;
  readonly alive: boolean;
  /** Its log lines with this message. */
  logged(msg: string): LogLine[];
}

export interface Cluster {
  processes: ApiProcess[];
  proxy: RoundRobinProxy;
  /** The proxy: every process's PUBLIC_URL, where clients go. */
  url: string;
  /** Signals a process (SIGKILL by default) and waits for it to exit. */
  kill(index: number, signal?: NodeJS.Signals): Promise<void>;
  /** Stops every process still running (SIGTERM, then SIGKILL), the proxy, and deletes the data folders. */
  close(): Promise<void>;
}

function spawnApi(index: number, port: number, env: Env, dataDir: string): ApiProcess {
  const child = spawn(process.execPath, [...NODE_FLAGS, path.join('dist', 'server.js')], {
    cwd: API_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'info',
      ...env,
      LOG_FORMAT: 'json',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-web-dist'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const stderr: string[] = [];
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() === '') continue;
      try {
        logs.push(JSON.parse(line) as LogLine);
      } catch {
        logs.push({ msg: line });
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  return {
    index,
    port,
    url: `http://127.0.0.1:${port}`,
    logs,
    stderr,
    child,
    listeningAt: 0,
    get alive() {
      return child.exitCode === null && child.signalCode === null;
    },
    logged: (msg) => logs.filter((line) => line.msg === msg),
  };
}

function listening(api: ApiProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(
        new Error(`API process ${api.index} did not listen within ${timeoutMs} ms\n${api.stderr.join('')}`),
      );
    }, timeoutMs);
    const check = () => {
      if (!api.logs.some((line) => String(line.msg ?? '').startsWith('listening on'))) return;
      api.listeningAt = Date.now();
      cleanup();
      resolve();
    };
    const exited = (code: number | null) => {
      cleanup();
      reject(new Error(`API process ${api.index} exited (${code}) before listening\n${api.stderr.join('')}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      api.child.stdout!.off('data', check);
      api.child.off('exit', exited);
    };
    // Registered after the parser's own listener, so the line just read is already in api.logs.
    api.child.stdout!.on('data', check);
    api.child.once('exit', exited);
    check();
  });
}

async function stop(api: ApiProcess, graceMs: number): Promise<void> {
  if (!api.alive) return;
  const exited = once(api.child, 'exit');
  api.child.kill('SIGTERM');
  const timer = setTimeout(() => api.child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts `size` API processes with `env` in common, and the proxy in front of them (their PUBLIC_URL).
 * Resolves once every one is listening.
 */
export async function startCluster(options: {
  size: number;
  env: Env;
  startTimeoutMs?: number;
}): Promise<Cluster> {
  const ports: number[] = [];
  while (ports.length < options.size) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  const proxy = await startRoundRobinProxy(ports.map((port) => ({ host: '127.0.0.1', port })));
  const dirs = await Promise.all(ports.map(() => tempDir('avp-cluster-')));
  const processes = ports.map((port, index) =>
    spawnApi(index, port, { ...options.env, PUBLIC_URL: proxy.url }, dirs[index]!.dir),
  );
  const cluster: Cluster = {
    processes,
    proxy,
    url: proxy.url,
    async kill(index, signal = 'SIGKILL') {
      const api = processes[index]!;
      if (!api.alive) return;
      const exited = once(api.child, 'exit');
      api.child.kill(signal);
      await exited;
    },
    async close() {
      await Promise.all(processes.map((api) => stop(api, 15_000)));
      await proxy.close();
      await Promise.all(dirs.map((dir) => dir.remove()));
    },
  };
  try {
    await Promise.all(processes.map((api) => listening(api, options.startTimeoutMs ?? 60_000)));
  } catch (error) {
    await cluster.close();
    throw error;
  }
  return cluster;
}
