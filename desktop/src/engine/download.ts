/**
 * Downloads for the show pull (issue #31): one file fetched into `<path>.part` with Range requests over the
 * engine's keep-alive agents, through the bandwidth bucket, hashed as it arrives. A `.part` left by Ctrl-C
 * or a crash is hashed from disk and continued from its length; the whole file is then checked against the
 * server's sha-256, and a file that does not match is fetched once more from its first byte.
 */
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { TokenBucket } from './token-bucket.js';
import { createAgents } from './transport.js';

export interface DownloadTarget {
  /** Absolute URL of the file's bytes (the staff download route, which serves Range). */
  url: string;
  size: number;
  sha256: string;
  /** Final path; bytes arrive in `${path}.part` and are renamed once verified. */
  path: string;
}

export interface DownloadOptions {
  token: string;
  bucket?: TokenBucket;
  signal?: AbortSignal;
  /** ms without a byte before an attempt is given up. */
  idleMs: number;
  connectMs: number;
  agents?: { http: http.Agent; https: https.Agent };
  /** Bytes newly received (for a progress line). */
  onBytes?: (bytes: number) => void;
}

export type DownloadOutcome =
  | { result: 'fetched'; bytes: number; resumedFrom: number; attempts: number }
  | { result: 'mismatch'; got: string; attempts: number };

export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status}`);
  }
}

/** The sha-256 of a file's first `length` bytes (all of it without), and the hash to continue from. */
export async function hashFile(path: string, length?: number): Promise<{ hash: Hash; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  if (length === 0) return { hash, bytes };
  const stream = createReadStream(
    path,
    length === undefined ? {} : { end: length - 1, highWaterMark: 1 << 20 },
  );
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { hash, bytes };
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await fs.stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** One GET of `from`..end into `part` (appended), feeding `hash`. */
async function fetchRange(
  target: DownloadTarget,
  part: string,
  from: number,
  hash: Hash,
  o: DownloadOptions,
): Promise<void> {
  const url = new URL(target.url);
  const agents = o.agents ?? sharedAgents();
  const client = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = {
    authorization: `Bearer ${o.token}`,
    'user-agent': 'av-upload pull',
  };
  if (from > 0) headers.range = `bytes=${from}-`;
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = client.get(
      url,
      { agent: url.protocol === 'https:' ? agents.https : agents.http, headers, signal: o.signal },
      resolve,
    );
    req.setTimeout(o.connectMs + o.idleMs, () =>
      req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
    );
    req.on('error', reject);
  });
  const expected = from > 0 ? 206 : 200;
  if (res.statusCode !== expected) {
    let body = '';
    res.setEncoding('utf8');
    for await (const chunk of res) body += chunk as string;
    throw new HttpStatusError(res.statusCode ?? 0, body);
  }
  res.setTimeout(o.idleMs, () =>
    res.destroy(Object.assign(new Error('no bytes for a while'), { code: 'ETIMEDOUT' })),
  );
  const out = createWriteStream(part, { flags: from > 0 ? 'a' : 'w' });
  // A write that fails (a full disk) is an error of the stream, not of write(): kept and thrown here, so a
  // full disk stops the file instead of waiting for a 'drain' that never comes.
  const failure: { error?: Error } = {};
  out.on('error', (error) => (failure.error ??= error));
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      if (o.bucket) await o.bucket.take(chunk.length, o.signal);
      hash.update(chunk);
      const room = out.write(chunk);
      if (failure.error) throw failure.error;
      if (!room) await once(out, 'drain');
      o.onBytes?.(chunk.length);
    }
  } finally {
    out.end();
    // finished(), not once('close'): a stream already closed by its error would never emit it again.
    await finished(out).catch(() => undefined);
  }
  if (failure.error) throw failure.error;
  if (!res.complete) throw Object.assign(new Error('the answer ended early'), { code: 'ECONNRESET' });
}

let agents: { http: http.Agent; https: https.Agent } | null = null;
function sharedAgents() {
  agents ??= createAgents();
  return agents;
}

/**
 * Fetches `target` (continuing a `.part` already there) and verifies it; on a mismatch, once more from
 * the start. A verified file is renamed into place; a file that still does not match stays as `.part`.
 */
export async function downloadFile(target: DownloadTarget, o: DownloadOptions): Promise<DownloadOutcome> {
  const part = `${target.path}.part`;
  let attempts = 0;
  let got = '';
  let resumedFrom = 0;
  for (let round = 0; round < 2; round += 1) {
    attempts += 1;
    let have = round === 0 ? ((await sizeOf(part)) ?? 0) : 0;
    // A .part longer than the file is not this file's: start again.
    if (have > target.size) have = 0;
    const { hash } = have > 0 ? await hashFile(part, have) : { hash: createHash('sha256') };
    if (have > 0) await fs.truncate(part, have);
    if (round === 0) resumedFrom = have;
    if (have < target.size || target.size === 0) {
      if (have === 0) await fs.writeFile(part, '');
      if (target.size > 0) await fetchRange(target, part, have, hash, o);
    }
    got = hash.digest('hex');
    if (got === target.sha256) {
      await fs.rename(part, target.path);
      return { result: 'fetched', bytes: target.size - resumedFrom, resumedFrom, attempts };
    }
  }
  return { result: 'mismatch', got, attempts };
}
