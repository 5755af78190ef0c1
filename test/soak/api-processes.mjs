// The API as the soak runs it: real processes of api/src/server.ts (as `npm run dev` and the scale-out
// test's cluster.ts start it: the server's node flags, tsx, the workspaces' source), each on a fixed port
// behind the round-robin proxy, so one can be killed with SIGKILL and started again on the same port.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rssBytes } from '../bench/process-stats.mjs';

const API_DIR = join(import.meta.dirname, '..', '..', 'api');
const NODE_FLAGS = JSON.parse(readFileSync(join(API_DIR, 'node-flags.json'), 'utf8'));
/** Warnings and errors kept per process slot, for the report's evidence. */
const KEPT_LINES = 4000;

export class ApiSlot {
  constructor({ index, port, env, dataDir }) {
    this.index = index;
    this.port = port;
    this.url = `http://127.0.0.1:${port}`;
    this.env = env;
    this.dataDir = dataDir;
    this.child = undefined;
    this.generation = 0;
    /** Lines at warn (40) and above, each with the generation that wrote it. */
    this.trouble = [];
    /** How many times each message was logged, all levels, all generations. */
    this.counts = new Map();
    this.stderr = [];
    this.listening = false;
    /** Exits nobody asked for: { generation, code, signal, at, stderr }. */
    this.crashes = [];
    /** Called with the slot after an exit nobody asked for (a supervisor would restart it). */
    this.onCrash = undefined;
    this.expectingExit = false;
  }

  get alive() {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid() {
    return this.child?.pid;
  }

  rss() {
    try {
      return this.alive ? rssBytes(this.child.pid) : 0;
    } catch {
      return 0;
    }
  }

  /** Starts a process on the slot's port; resolves once it logs that it listens (or rejects on exit/timeout). */
  start(timeoutMs = 90_000) {
    this.generation++;
    const generation = this.generation;
    this.listening = false;
    const entry =
      process.env.SOAK_API === 'dist'
        ? [join('dist', 'server.js')]
        : ['--import', 'tsx', '--conditions=source', join('src', 'server.ts')];
    const child = spawn(process.execPath, [...NODE_FLAGS, ...entry], {
      cwd: API_DIR,
      env: {
        PATH: process.env.PATH ?? '',
        ...this.env,
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        HOST: '127.0.0.1',
        PORT: String(this.port),
        DATA_DIR: this.dataDir,
        WEB_DIST_DIR: join(this.dataDir, 'no-web-dist'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.expectingExit = false;
    child.once('exit', (code, signal) => {
      if (this.expectingExit || this.child !== child) return;
      this.crashes.push({
        generation,
        code,
        signal,
        at: Date.now(),
        stderr: this.stderr.join('').slice(-3000),
      });
      this.onCrash?.(this);
    });
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const text of lines) {
        if (text.trim() === '') continue;
        let line;
        try {
          line = JSON.parse(text);
        } catch {
          line = { level: 30, msg: text };
        }
        const msg = String(line.msg ?? '');
        this.counts.set(msg, (this.counts.get(msg) ?? 0) + 1);
        if (Number(line.level) >= 40 && this.trouble.length < KEPT_LINES) {
          this.trouble.push({ generation, ...line });
        }
        if (msg.startsWith('listening on')) {
          this.listening = true;
          child.emit('soak:listening');
        }
      }
    });
    child.stderr.on('data', (chunk) => {
      if (this.stderr.length < 200) this.stderr.push(`[${generation}] ${chunk.toString('utf8')}`);
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`API process ${this.index} did not listen within ${timeoutMs} ms`));
      }, timeoutMs);
      const ok = () => {
        cleanup();
        resolve();
      };
      const exited = (code, signal) => {
        cleanup();
        reject(
          new Error(
            `API process ${this.index} exited (${code ?? signal}) before listening:\n${this.stderr.join('').slice(-2000)}`,
          ),
        );
      };
      const cleanup = () => {
        clearTimeout(timer);
        child.off('soak:listening', ok);
        child.off('exit', exited);
      };
      child.on('soak:listening', ok);
      child.once('exit', exited);
    });
  }

  /** kill -9, and wait for the exit. */
  async kill() {
    if (!this.alive) return;
    this.expectingExit = true;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGKILL');
    await exited;
  }

  /** SIGTERM, then SIGKILL after the grace period. */
  async stop(graceMs = 15_000) {
    if (!this.alive) return;
    this.expectingExit = true;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }

  logged(msg) {
    return this.counts.get(msg) ?? 0;
  }
}
