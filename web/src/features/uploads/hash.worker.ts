/**
 * The module Web Worker that computes an upload's sha-256 off the main thread (hashing.ts says how):
 * it is sent the File, then the ranges to hash in order, then 'digest', and answers the hex.
 */
import { hashWorker, type HashReply, type HashRequest } from './hashing';

// Typed by hand: the web project's lib is the DOM's, where `self` is a Window.
const scope = self as unknown as {
  postMessage(reply: HashReply): void;
  onmessage: ((event: MessageEvent<HashRequest>) => void) | null;
};

const handle = hashWorker((reply) => scope.postMessage(reply));
scope.onmessage = (event) => handle(event.data);
