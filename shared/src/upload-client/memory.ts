/**
 * Gives `bytes`' memory back now rather than at the next full garbage collection, when `bytes` is its
 * whole ArrayBuffer (a part read from a file, a request's body chunk). Such buffers live outside the
 * JavaScript heap, and every ~64 MB of them left to the collector starts a full collection of the whole
 * heap (V8's external-memory limit: 'external memory pressure' under --trace-gc), in a server as in a
 * client sending thousands of files. A view of part of a buffer (a slice, a small buffer cut from Node's
 * pool) is left alone, so no other view loses its bytes. The caller must be the last user of the bytes.
 * Needs ArrayBuffer.prototype.transfer (Node 24, current browsers); without it, nothing happens.
 */
export function giveBackMemory(bytes: Uint8Array): void {
  const memory = bytes.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (bytes.byteOffset === 0 && bytes.byteLength === memory.byteLength && memory.byteLength > 0) {
    memory.transfer?.(0);
  }
}
