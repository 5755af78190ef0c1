import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPLOAD_PART_SIZE, UploadClient } from '@avp/shared';
import type { TransportRequest } from '@avp/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { registration } from './helpers/browser.js';
import { TEST_SECRET, tempDir } from './helpers/env.js';
import { fetchTransport, memorySource, sponsorForm } from './helpers/uploads.js';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The real server as a child process (node on api/dist, built by the global setup), resolved once it listens. */
async function startServerProcess(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join('dist', 'server.js')], {
    cwd: API_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      WEB_DIST_DIR: dataDir,
      SESSION_SECRET: TEST_SECRET,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  await new Promise<void>((resolve, reject) => {
    let buffered = '';
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      if (buffered.includes('"listening on')) resolve();
    });
  });
  return child;
}

describe('an upload across a server crash', () => {
  it('resumes after the server process is killed mid-upload and restarted; the stored sha-256 matches', async () => {
    const data = await tempDir();
    cleanups.push(data.remove);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let server = await startServerProcess(data.dir, port);

    const registered = await fetch(`${url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registration()),
    });
    expect(registered.status).toBe(201);
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password: 'Difference Engine 1843', token: true }),
    });
    const { token } = (await login.json()) as { token: string };

    // Count what the client sends and what fails, at its transport.
    const sentParts: { part: number; afterRestart: boolean }[] = [];
    let failures = 0;
    let restarted = false;
    const transport = fetchTransport(url, { bearer: token });
    const client = new UploadClient({
      transport: async (request: TransportRequest) => {
        try {
          const res = await transport(request);
          // The last part names the file's sha-256 (?sha256=), and its answer completes the file.
          const part = /\/parts\/(\d+)(?:\?|$)/.exec(request.path);
          if (part && res.status === 200) sentParts.push({ part: Number(part[1]), afterRestart: restarted });
          return res;
        } catch (error) {
          failures++;
          throw error;
        }
      },
      createHasher: () => {
        const hash = createHash('sha256');
        return { update: (d) => void hash.update(d), digest: () => hash.digest('hex') };
      },
      partConcurrency: 2,
      retry: { retries: 40, baseMs: 100, maxMs: 1_000 },
    });
    const submission = await client.createSubmission(sponsorForm);
    const file = memorySource(UPLOAD_PART_SIZE * 8 + 321, 'keynote.mov');
    const upload = client.file(submission.id, file.source);

    let killed: Promise<void> | undefined;
    upload.onChange((u) => {
      if (killed === undefined && u.progress().sentBytes >= UPLOAD_PART_SIZE * 2) {
        server.kill('SIGKILL');
        killed = new Promise<void>((resolve) => server.once('exit', () => resolve())).then(async () => {
          restarted = true;
          server = await startServerProcess(data.dir, port);
        });
      }
    });
    upload.start();
    const outcome = await upload.settled();
    await killed;

    expect(outcome).toMatchObject({ state: 'complete', file: { sha256: file.sha256 } });
    expect(failures).toBeGreaterThan(0);
    const before = new Set(sentParts.filter((p) => !p.afterRestart).map((p) => p.part));
    const after = new Set(sentParts.filter((p) => p.afterRestart).map((p) => p.part));
    expect(before.size).toBeGreaterThanOrEqual(2);
    // It continued where it stopped: parts stored before the crash were not sent again.
    for (const part of after) expect(before.has(part)).toBe(false);
    expect(before.size + after.size).toBe(9);

    // The bytes on disk, hashed independently.
    const stored = path.join(data.dir, 'uploads', 'submissions', submission.id, upload.fileId!);
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(stored)) hash.update(chunk as Buffer);
    expect(hash.digest('hex')).toBe(file.sha256);
    // The parts in flight at the kill stay claimed by the dead process for up to 10 s (claims.ts).
  }, 90_000);
});
