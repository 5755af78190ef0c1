/**
 * The module Web Worker that reads a picked file's media facts (issue #30) with '@avp/shared/media-reader'
 * (mediainfo.js, MediaInfoLib in WebAssembly) off the main thread. It is sent the File and asks it only for
 * the ranges MediaInfoLib wants (Blob.slice), never the whole file; it answers the facts (null: not
 * readable) and how many bytes it read. Only the upload pages start it, so only they load the WebAssembly.
 */
import { readMediaFacts } from '@avp/shared/media-reader';
import wasmUrl from 'mediainfo.js/MediaInfoModule.wasm?url';
import type { FactsReply, FactsRequest } from './media-facts';

// Typed by hand: the web project's lib is the DOM's, where `self` is a Window.
const scope = self as unknown as {
  postMessage(reply: FactsReply): void;
  onmessage: ((event: MessageEvent<FactsRequest>) => void) | null;
};

scope.onmessage = (event) => {
  const { id, file, timeoutMs } = event.data;
  const started = performance.now();
  readMediaFacts({
    size: file.size,
    readChunk: async (offset, length) =>
      new Uint8Array(await file.slice(offset, Math.min(file.size, offset + length)).arrayBuffer()),
    wasmUrl: new URL(wasmUrl, self.location.href).href,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  }).then(
    (result) =>
      scope.postMessage({
        id,
        facts: result.facts,
        bytesRead: result.bytesRead,
        ms: performance.now() - started,
      }),
    () => scope.postMessage({ id, facts: null, bytesRead: 0, ms: performance.now() - started }),
  );
};
