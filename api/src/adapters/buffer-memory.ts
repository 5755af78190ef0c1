/**
 * Gives `bytes`' memory back now rather than at V8's next full collection, when `bytes` is its whole
 * ArrayBuffer (a Node HTTP parser's body chunk or socket read): such buffers live outside V8's heap, and
 * every ~64 MB of them left to the collector reaches V8's external-memory limit, which starts a full
 * collection of the server's whole heap (bench:upload and bench:import, --trace-gc
 * --trace-incremental-marking: 'external memory pressure'). A view of part of a buffer (a slice, a small
 * buffer cut from Node's pool) is left alone, so no other view loses its bytes. The caller must be the
 * last user of the bytes. Needs ArrayBuffer.prototype.transfer (Node 24); without it, nothing happens.
 */
export function giveBackMemory(bytes: Uint8Array): void {
  const memory = bytes.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (bytes.byteOffset === 0 && bytes.byteLength === memory.byteLength && memory.byteLength > 0) {
    memory.transfer?.(0);
  }
}
