// Bytes of any size from a seed, a range at a time: an upload's or a cloud file's contents are never held
// whole, in memory or on disk, yet any range can be produced again to send it or to check it.
import { createCipheriv, createHash } from 'node:crypto';

const BLOCK = 16;
const HASH_CHUNK = 8 * 1024 * 1024;

/** AES-128-CTR's keystream under a key drawn from the seed: block n of the stream is block n of the file. */
export function seededBytes(seed, start, end) {
  const key = createHash('sha256').update(String(seed)).digest().subarray(0, 16);
  const firstBlock = Math.floor(start / BLOCK);
  const iv = Buffer.alloc(BLOCK);
  iv.writeBigUInt64BE(BigInt(firstBlock), 8);
  const skip = start - firstBlock * BLOCK;
  const stream = createCipheriv('aes-128-ctr', key, iv).update(Buffer.alloc(end - start + skip));
  return stream.subarray(skip);
}

/** The sha-256 of the whole file, produced a chunk at a time, yielding to the event loop between chunks. */
export async function seededSha256(seed, size) {
  const hash = createHash('sha256');
  for (let offset = 0; offset < size; offset += HASH_CHUNK) {
    hash.update(seededBytes(seed, offset, Math.min(size, offset + HASH_CHUNK)));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return hash.digest('hex');
}

/** sha-256 of an async iterable of chunks (a stored object read back). */
export async function streamSha256(chunks) {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of chunks) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}
