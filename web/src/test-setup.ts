// The setup runs in Node, not in a page: it borrows Node's Web Crypto for what jsdom lacks (below).
// eslint-disable-next-line no-restricted-imports
import { webcrypto } from 'node:crypto';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Testing Library drains React's updates with a setTimeout(0) that it advances itself only when it
// recognises Jest's fake timers (a global `jest`); under Vitest's fake timers that timeout never fires
// and every user-event call hangs. This gives it Vitest's clock.
const globals = globalThis as { jest?: { advanceTimersByTime: (ms: number) => void } };
globals.jest ??= { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) };

// jsdom has no layout engine: scrolling is a no-op there, and the real behaviour is checked in Chromium.
window.scrollTo = () => undefined;
Element.prototype.scrollIntoView = () => undefined;

// Browsers give a page crypto.subtle (uploads hash a whole file with it); jsdom's crypto has only
// getRandomValues and randomUUID, which in vmThreads' context is all a file sees. Node's is the same API.
if (!(crypto.subtle as SubtleCrypto | undefined)) {
  Object.defineProperty(crypto, 'subtle', { value: webcrypto.subtle, configurable: true });
}

afterEach(() => cleanup());
