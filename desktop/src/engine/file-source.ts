/**
 * An UploadSource over a file on disk: each read opens (once) and reads only the requested byte range
 * at its offset, so a 10 GiB file never sits in memory. Before every read the open handle is checked
 * against the size and modified time recorded when the file was queued: a file edited since then is
 * refused instead of sending a mix of old and new bytes.
 */
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { MediaFacts, UploadSource } from '@avp/shared';

/** What identifies a file's content when it is queued (DESIGN 'Uploads': name, size, modified time). */
export interface FileIdentity {
  path: string;
  size: number;
  /** Modified time in whole milliseconds. */
  mtimeMs: number;
}

export class FileChangedError extends Error {
  readonly code = 'file_changed';
  constructor(readonly filePath: string) {
    super(fileChangedMessage(path.basename(filePath)));
    this.name = 'FileChangedError';
  }
}

export function fileChangedMessage(name: string): string {
  return (
    `"${name}" changed on disk after it was queued (its size or modified time differs), so it was stopped ` +
    'rather than sending a mix of old and new bytes. Add it again to send the new version.'
  );
}

export async function identify(filePath: string): Promise<FileIdentity> {
  const info = await stat(filePath);
  if (!info.isFile()) throw new Error(`Not a file: ${filePath}`);
  return { path: path.resolve(filePath), size: info.size, mtimeMs: Math.trunc(info.mtimeMs) };
}

/** Whether the file on disk is still the one queued; false also when it is gone. */
export async function unchanged(identity: FileIdentity): Promise<boolean> {
  try {
    const now = await identify(identity.path);
    return now.size === identity.size && now.mtimeMs === identity.mtimeMs;
  } catch {
    return false;
  }
}

const TYPES: Record<string, string> = {
  '.mov': 'video/quicktime',
  '.mp4': 'video/mp4',
  '.m4v': 'video/x-m4v',
  '.mxf': 'application/mxf',
  '.avi': 'video/x-msvideo',
  '.mkv': 'video/x-matroska',
  '.webm': 'video/webm',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

export function mimeType(filePath: string): string {
  return TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/** Part buffers kept for reuse: one per part in flight (8 at most) and one being read. */
const SPARE_BUFFERS = 9;
/** Kept this long after the last part was handed back, then left to the collector (an idle app). */
const SPARE_IDLE_MS = 10_000;

/**
 * Memory of parts already sent, for the next reads of any file. A 10 GiB file is 1,700 parts of 6 MiB, and a
 * folder of a thousand stills is a thousand parts of a few MiB, each of a file of its own: leaving each to the
 * garbage collector kept the resident set high and the collector busy (a full collection every dozen 1 MiB
 * files, a third of av-upload's processor time in bench:many, issue #34), so the memory is shared by every
 * source instead of being dropped with the file.
 */
class PartBuffers {
  private readonly spare: ArrayBuffer[] = [];
  private readonly own = new WeakSet<ArrayBufferLike>();
  private idle: ReturnType<typeof setTimeout> | null = null;

  /** `length` bytes: the smallest spare that holds them, else new memory. */
  take(length: number): Buffer {
    let best = -1;
    for (let i = 0; i < this.spare.length; i++) {
      const size = this.spare[i]!.byteLength;
      if (size >= length && (best === -1 || size < this.spare[best]!.byteLength)) best = i;
    }
    if (best !== -1) return Buffer.from(this.spare.splice(best, 1)[0]!, 0, length);
    // Its own ArrayBuffer (never a slice of Node's shared pool), so it can be handed back whole.
    const memory = new ArrayBuffer(length);
    this.own.add(memory);
    return Buffer.from(memory, 0, length);
  }

  give(bytes: Uint8Array): void {
    const memory = bytes.buffer;
    if (!this.own.has(memory) || this.spare.includes(memory as ArrayBuffer)) return;
    if (this.spare.length >= SPARE_BUFFERS) {
      // Full: the larger memory is kept, as it serves any part.
      let smallest = 0;
      for (let i = 1; i < this.spare.length; i++)
        if (this.spare[i]!.byteLength < this.spare[smallest]!.byteLength) smallest = i;
      if (this.spare[smallest]!.byteLength >= memory.byteLength) return;
      this.spare.splice(smallest, 1);
    }
    this.spare.push(memory as ArrayBuffer);
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      this.spare.length = 0;
      this.idle = null;
    }, SPARE_IDLE_MS);
    this.idle.unref?.();
  }
}

const partBuffers = new PartBuffers();

export class NodeFileSource implements UploadSource {
  readonly name: string;
  readonly size: number;
  readonly type: string;
  readonly lastModified: number;
  /** Set once a read found the file changed; the engine turns it into a clear message. */
  changed = false;
  /** The file's media facts as read before it was queued, sent with its registration (issue #30). */
  facts?: MediaFacts | null;
  private handle: Promise<FileHandle> | null = null;

  constructor(readonly identity: FileIdentity) {
    this.name = path.basename(identity.path);
    this.size = identity.size;
    this.type = mimeType(identity.path);
    this.lastModified = identity.mtimeMs;
  }

  async read(start: number, end: number): Promise<Uint8Array> {
    this.handle ??= open(this.identity.path, 'r');
    const handle = await this.handle;
    const info = await handle.stat();
    if (info.size !== this.identity.size || Math.trunc(info.mtimeMs) !== this.identity.mtimeMs) {
      this.changed = true;
      throw new FileChangedError(this.identity.path);
    }
    const length = Math.max(0, end - start);
    const buffer = partBuffers.take(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await handle.read(buffer, filled, length - filled, start + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === length ? buffer : buffer.subarray(0, filled);
  }

  /** Takes back the memory of a part the client is done with. */
  release(bytes: Uint8Array): void {
    partBuffers.give(bytes);
  }

  /** Closes the file; a later read opens it again. */
  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    if (handle) await (await handle.catch(() => null))?.close();
  }
}
