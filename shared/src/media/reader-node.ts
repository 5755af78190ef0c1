/// <reference types="node" />
/**
 * The media reader in Node ('@avp/shared/media-reader' resolves here outside a browser): readMediaFacts as
 * in the browser, and readFileFacts for a file on disk, read with positional reads of one open handle.
 */
// The one Node-only module of shared: only the Node condition of '@avp/shared/media-reader' resolves here
// (package.json "exports"); '@avp/shared' and the browser condition never load it.
// eslint-disable-next-line no-restricted-imports
import { open } from 'node:fs/promises';
import { readMediaFacts } from './reader.js';
import type { ReadMediaFactsInput } from './reader.js';
import type { MediaReadResult } from './types.js';

export * from './reader.js';

/** Reads the media facts of the file at `path`; facts null when it cannot be read (or opened). */
export async function readFileFacts(
  path: string,
  options: Omit<ReadMediaFactsInput, 'size' | 'readChunk'> = {},
): Promise<MediaReadResult> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return { facts: null, bytesRead: 0, raw: null };
  }
  try {
    const { size } = await handle.stat();
    const file = handle;
    return await readMediaFacts({
      ...options,
      size,
      readChunk: async (offset, length) => {
        const buffer = new Uint8Array(length);
        let filled = 0;
        while (filled < length) {
          const { bytesRead } = await file.read(buffer, filled, length - filled, offset + filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        return buffer.subarray(0, filled);
      },
    });
  } finally {
    await handle.close().catch(() => undefined);
  }
}
