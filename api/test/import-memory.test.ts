import { randomBytes } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { UPLOAD_PART_SIZE } from '@avp/shared';
import type { UploadFileInfo } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { startDriveStandIn } from './helpers/cloud-standins/drive.js';
import { DIALECTS } from './helpers/env.js';
import { sha256, startImportHarness } from './helpers/imports.js';

/**
 * An import's memory (#34): each byte range's body chunks (Node's HTTP parser copies them out of the
 * socket's reads, so they are the import's alone) are given back by storage once written and hashed, and
 * each socket read the answer arrived in is given back as soon as the parser has taken it
 * (adapters/cloud/range-fetch.ts). Watched from outside, at Node's HTTP client (its diagnostics channel),
 * on a real import from the Drive stand-in over loopback into local storage: every chunk and every read
 * ends detached (its ArrayBuffer reads as empty), and the stored file still has its bytes and sha-256.
 */

const PART = UPLOAD_PART_SIZE;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

/** Whether a chunk's memory was given back (its ArrayBuffer detached: it reads as empty). */
const given = (chunk: Buffer) => chunk.buffer.byteLength === 0;

/**
 * Records the body chunks and the socket reads of every ranged GET to `origin`'s port while it runs. The
 * body is paused once watched, as the import's idle watch does, so the watch sets nothing flowing.
 */
function watchRangeAnswers(port: number) {
  const chunks: Buffer[] = [];
  const reads: Buffer[] = [];
  let answers = 0;
  // Counted as they come: a chunk given back reads as empty afterwards.
  let bytes = 0;
  const onResponse = (message: unknown) => {
    const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
    if (!request.getHeader('range') || response.socket?.remotePort !== port) return;
    answers += 1;
    const socket = response.socket;
    const onRead = (read: Buffer) => void reads.push(read);
    const stop = () => socket.off('data', onRead);
    socket.on('data', onRead);
    response.once('end', stop);
    response.once('close', stop);
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      bytes += chunk.length;
    });
    response.pause();
  };
  subscribe('http.client.response.finish', onResponse);
  return {
    chunks,
    reads,
    answers: () => answers,
    bytes: () => bytes,
    stop: () => unsubscribe('http.client.response.finish', onResponse),
  };
}

describe.each(DIALECTS)('an import’s memory (%s)', (dialect) => {
  it('each range’s chunks and socket reads are given back once stored, the bytes and sha-256 intact', async () => {
    const d = await startDriveStandIn();
    cleanups.push(() => d.close());
    const h = await startImportHarness({ dialect, env: { GOOGLE_API_URL: d.url } });
    cleanups.push(() => h.close());
    const watch = watchRangeAnswers(Number(new URL(d.url).port));
    cleanups.push(async () => watch.stop());

    const data = randomBytes(2 * PART + 4321);
    d.files.set('f-reel', { name: 'reel.mov', mimeType: 'video/quicktime', data });
    const started = await h.start({
      provider: 'google-drive',
      fileId: 'f-reel',
      name: 'reel.mov',
      accessToken: 'token-1',
    });
    expect(started.status).toBe(201);
    const done = await h.waitFor(
      started.file.id,
      (f: UploadFileInfo) => f.status === 'complete' && f.import?.status === 'complete',
    );
    watch.stop();

    expect(done.sha256).toBe(sha256(data));
    expect((await h.stored(started.file.id)).equals(data)).toBe(true);
    // One ranged answer per part, their chunks all the file's bytes, each chunk given back.
    expect(watch.answers()).toBe(3);
    expect(watch.bytes()).toBe(data.length);
    expect(watch.chunks.filter((chunk) => !given(chunk)).length, 'chunks kept').toBe(0);
    // And the socket reads they were parsed from, once the answers had begun.
    expect(watch.reads.length).toBeGreaterThan(3);
    expect(watch.reads.filter((read) => !given(read)).length, 'reads kept').toBe(0);
  });
});
