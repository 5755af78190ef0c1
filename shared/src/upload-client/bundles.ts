/**
 * Bundles (issue #34): small files sent whole, several in one request (POST /api/uploads/bundles), so a
 * folder of stills costs a request per bundle and not per file. A bundle is only ever a way to send files
 * that would otherwise each go in one part PUT with their sha-256: any file it does not complete (refused,
 * changed, a request that failed, an older server) goes on as a file of its own, the usual way, where its
 * errors and retries are the ones a user already knows.
 */
import type { FileUpload, UploadClient } from './client.js';
import { UPLOAD_BUNDLE_MAX_BYTES, UPLOAD_BUNDLE_MAX_FILES } from './protocol.js';
import type { BundleEntry, UploadFileInfo } from './protocol.js';

/** Files this size or smaller may go in a bundle: at least two fit. */
export const BUNDLE_FILE_MAX_BYTES = Math.floor(UPLOAD_BUNDLE_MAX_BYTES / 2);

/** Whether `upload` may go in a bundle: waiting, registered ahead with others, small, not empty. */
export function bundleable(client: UploadClient, upload: FileUpload): boolean {
  const { size } = upload.source;
  return (
    client.bundling &&
    upload.state === 'waiting' &&
    upload.registeredAhead &&
    size > 0 &&
    size <= BUNDLE_FILE_MAX_BYTES
  );
}

/**
 * The bundle that starts at waiting[from]: it and the bundleable files right after it, up to
 * UPLOAD_BUNDLE_MAX_FILES files and UPLOAD_BUNDLE_MAX_BYTES bytes. One file alone is no bundle (empty).
 */
export function bundleAt(client: UploadClient, waiting: readonly FileUpload[], from: number): FileUpload[] {
  const first = waiting[from];
  if (!first || !bundleable(client, first)) return [];
  const group = [first];
  let bytes = first.source.size;
  for (let i = from + 1; i < waiting.length && group.length < UPLOAD_BUNDLE_MAX_FILES; i++) {
    const next = waiting[i]!;
    if (!bundleable(client, next) || bytes + next.source.size > UPLOAD_BUNDLE_MAX_BYTES) break;
    group.push(next);
    bytes += next.source.size;
  }
  return group.length > 1 ? group : [];
}

/**
 * Bundle bodies, kept for the next bundle rather than made anew: a new 6 MiB array is zeroed and its pages
 * faulted in before the files are copied into it, and left to the garbage collector after (av-upload, 1,000
 * files of 1 MiB: 1.3 s of its main thread in the copy, and full collections for the memory). A few are
 * kept, as many as the bundles that are sent at once, until no bundle is under way; a body is given back
 * only once its request was answered, never while a failed one may still be sending it.
 */
class BundleBodies {
  private readonly spare: ArrayBuffer[] = [];

  take(size: number): Uint8Array {
    return new Uint8Array(this.spare.pop() ?? new ArrayBuffer(UPLOAD_BUNDLE_MAX_BYTES), 0, size);
  }

  give(body: Uint8Array): void {
    if (this.spare.length < BundleBodies.KEPT && body.buffer.byteLength === UPLOAD_BUNDLE_MAX_BYTES) {
      this.spare.push(body.buffer as ArrayBuffer);
    }
  }

  /** Once no bundle is under way, the memory goes back. */
  clear(): void {
    this.spare.length = 0;
  }

  static readonly KEPT = 4;
}

const bodies = new BundleBodies();

/**
 * The bundles a queue of files has under way (an UploadQueue's, the desktop engine's): each counts as one
 * file in flight, as it holds no more than a part, and as one file starting until its request is sent.
 */
export class BundlesUnderWay {
  private readonly under = new Set<{ preparing: boolean }>();

  get count(): number {
    return this.under.size;
  }

  /** Bundles whose request is not sent yet (reading their files, waiting for a part's slot). */
  get preparing(): number {
    let n = 0;
    for (const b of this.under) if (b.preparing) n++;
    return n;
  }

  /** Sends `group` as one bundle; `roomMade` is called once another may be readied beside it, and at its end. */
  send(client: UploadClient, group: readonly FileUpload[], roomMade: () => void): void {
    const bundle = { preparing: true };
    this.under.add(bundle);
    const sent = () => {
      bundle.preparing = false;
      roomMade();
    };
    void sendBundle(client, group, sent).finally(() => {
      this.under.delete(bundle);
      if (this.under.size === 0) bodies.clear();
      roomMade();
    });
  }
}

/** A file of the bundle being sent: its round, its registration, and (once read) its checksum. */
interface Member {
  upload: FileUpload;
  generation: number;
  info: UploadFileInfo;
  bytes?: Uint8Array;
  sha256?: string;
}

/**
 * Sends `uploads` in one bundle: each begins (uploading), its registration made ahead is awaited, its
 * bytes are read and hashed, and one request carries them all; each file the answer names complete is
 * complete, and every other goes on alone. `sent` is called once the bundle's request is on its way (or
 * it will not be): the queue then readies the next one beside it. Resolves once every file has its answer.
 */
export async function sendBundle(
  client: UploadClient,
  uploads: readonly FileUpload[],
  sent: () => void,
): Promise<void> {
  let told = false;
  const tell = () => {
    if (told) return;
    told = true;
    sent();
  };
  const begun: { upload: FileUpload; generation: number }[] = [];
  for (const upload of uploads) {
    const generation = upload.beginBundled();
    if (generation !== null) begun.push({ upload, generation });
  }
  const members: Member[] = [];
  // Files the server holds something of, or refused ahead (say, for the quota of unfinished uploads):
  // on alone once the bundle's files have their answers, as after the parts of the files before them.
  const others: { upload: FileUpload; generation: number }[] = [];
  let slot = false;
  try {
    const infos = await Promise.all(begun.map((b) => b.upload.takeAhead()));
    begun.forEach((b, i) => {
      const info = infos[i];
      // Only a file the server holds nothing of yet, of one part, not imported: anything else resumes.
      const fresh =
        info &&
        info.status === 'uploading' &&
        info.partCount === 1 &&
        info.size === b.upload.source.size &&
        (info.receivedParts ?? []).length === 0 &&
        !info.import;
      if (fresh) members.push({ ...b, info });
      else others.push(b);
    });
    await client.takePartSlot();
    slot = true;
    if (members.length < 2) return;
    for (const member of members) await readMember(client, member);
    const carried = members.filter((m) => m.sha256 !== undefined && m.upload.liveRound(m.generation));
    if (carried.length < 2) return;
    const body = bodies.take(carried.reduce((sum, m) => sum + m.bytes!.length, 0));
    let at = 0;
    for (const m of carried) {
      body.set(m.bytes!, at);
      at += m.bytes!.length;
      release(m);
    }
    const entries: BundleEntry[] = carried.map((m) => ({
      fileId: m.info.id,
      size: m.info.size,
      sha256: m.sha256!,
    }));
    const answer = client.putBundle(entries, body);
    tell();
    const items = await answer.catch(() => null);
    // Sent and answered: nobody reads the body again (not so after a failure, which may still be sending).
    if (items !== null) bodies.give(body);
    for (const item of items ?? []) {
      const member = carried.find((m) => m.info.id === item.id);
      if (member && item.file?.status === 'complete') {
        member.upload.endBundled(member.generation, item.file);
        members.splice(members.indexOf(member), 1);
      }
    }
  } finally {
    // Each goes on alone from what it is known to be; a part it sends takes its slot at once, so files
    // waiting for the parts before theirs to be stored (the quota's) still wait for these.
    for (const m of members) {
      release(m);
      m.upload.endBundled(m.generation, null, m.info);
    }
    for (const o of others) o.upload.endBundled(o.generation, null);
    if (slot) client.releasePartSlot();
    tell();
  }
}

/** Reads and hashes a member's bytes; a file that cannot be read, or changed, is left to its own round. */
async function readMember(client: UploadClient, member: Member): Promise<void> {
  const { source } = member.upload;
  if (!member.upload.liveRound(member.generation)) return;
  const hasher = client.createHasher?.(source) ?? null;
  if (hasher === null) return;
  try {
    const bytes = await source.read(0, source.size);
    member.bytes = bytes;
    if (bytes.length !== source.size) {
      hasher.dispose?.();
      return;
    }
    hasher.update(bytes);
    member.sha256 = await hasher.digest();
  } catch {
    hasher.dispose?.();
  }
}

function release(member: Member): void {
  if (member.bytes === undefined) return;
  member.upload.source.release?.(member.bytes);
  member.bytes = undefined;
}
