/**
 * An incremental SHA-256 (@noble/hashes) for runtimes without a streaming hash: the browser's
 * crypto.subtle.digest needs the whole file at once. Node callers should pass node:crypto's
 * createHash('sha256') to the upload client instead; it is several times faster.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

export interface Hasher {
  update(data: Uint8Array): void;
  /** Lower-case hex. */
  digest(): string | Promise<string>;
  /**
   * Called instead of digest when the client gives the hash up (the file paused, removed or failed), so
   * a hasher holding something (the browser's hashes in a Web Worker) can let it go. Never after digest.
   */
  dispose?(): void;
}

export class Sha256 implements Hasher {
  private readonly hash = sha256.create();
  private finished = false;

  update(data: Uint8Array): void {
    if (this.finished) throw new Error('SHA-256: update after digest');
    this.hash.update(data);
  }

  digest(): string {
    if (this.finished) throw new Error('SHA-256: digest called twice');
    this.finished = true;
    return bytesToHex(this.hash.digest());
  }
}

export function createSha256(): Hasher {
  return new Sha256();
}
