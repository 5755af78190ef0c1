import { Readable } from 'node:stream';

/**
 * One stretch of a request body, as a stream of its own (a file's bytes in a bundle, bundles.ts). Its
 * chunks are the request's, never copied: split only where a stretch ends, and a split chunk is a view
 * of the request's buffer, which storage never gives back (adapters/buffer-memory.ts frees whole
 * buffers only), so it owns its chunks as the request does.
 */
export class RequestSegment extends Readable {
  constructor(private readonly wanted: () => void) {
    super({ highWaterMark: 256 * 1024 });
  }

  override _read(): void {
    this.wanted();
  }
}

function cutOff(): Error {
  return Object.assign(new Error('The request ended before the last of its files.'), {
    code: 'ERR_STREAM_PREMATURE_CLOSE',
  });
}

interface Stretch {
  stream: RequestSegment;
  left: number;
  /** Read and dropped: its reader gave up on it (a refusal before a byte, a failed write). */
  dropping: boolean;
  done: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Splits a request body into consecutive stretches of known sizes, read one after another with
 * back-pressure: the request is read only while the current stretch's reader wants more, and not at all
 * between two stretches. A stretch its reader left unread (or stopped reading) is read to its end and
 * dropped by settle(), so the next one starts at its own first byte. A request that fails or ends early
 * fails the stretch being read (as its own end would fail a part's write) and every later one.
 */
export class BodySegments {
  private stretch: Stretch | null = null;
  /** Bytes read past the end of a stretch, for the next one. */
  private held: Buffer[] = [];
  private ended = false;
  /** Past the last stretch: whatever comes is dropped. */
  private draining = false;
  failure: Error | null = null;

  constructor(private readonly body: Readable) {
    body.on('data', (chunk: Buffer) => this.take(chunk));
    body.once('end', () => {
      this.ended = true;
      if (this.stretch && this.stretch.left > 0) this.fail(cutOff());
    });
    body.once('error', (error: Error) => this.fail(error));
    body.once('close', () => {
      if (!this.ended) this.fail(cutOff());
    });
    body.pause();
  }

  /** The next `size` bytes (at least 1), once the stretch before has been settled. */
  next(size: number): RequestSegment {
    if (this.stretch) throw new Error('settle() the stretch before taking the next');
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Settled by settle() or a failure; a rejection nobody awaits is not an unhandled one.
    done.catch(() => undefined);
    const stream = new RequestSegment(() => this.flow());
    this.stretch = { stream, left: size, dropping: false, done, resolve, reject };
    if (this.failure) this.fail(this.failure);
    return stream;
  }

  /**
   * Resolves once every byte of the current stretch has been handed to its stream (its reader may still
   * hold the last of them, no more than the stream's buffer); rejects with the request's failure. Unlike
   * settle(), it drops nothing: the reader goes on with what it was handed.
   */
  handedOver(): Promise<void> {
    return this.stretch?.done ?? Promise.resolve();
  }

  /**
   * Reads whatever is left of the current stretch and drops it; resolves once the body stands at the
   * next stretch's first byte, or rejects with the request's failure.
   */
  async settle(): Promise<void> {
    const stretch = this.stretch;
    if (!stretch) return;
    if (stretch.left > 0) {
      stretch.dropping = true;
      this.flow();
    }
    try {
      await stretch.done;
    } finally {
      if (this.stretch === stretch) this.stretch = null;
    }
  }

  /**
   * Reads the body to its end and drops what is left (nothing, once every stretch was taken): a request
   * read to its end keeps its connection for the next one (routes.ts closeUnlessRead).
   */
  async finish(): Promise<void> {
    await this.settle();
    if (this.failure) throw this.failure;
    if (this.ended) return;
    this.held = [];
    this.draining = true;
    await new Promise<void>((resolve, reject) => {
      this.body.once('end', resolve);
      this.body.once('error', reject);
      this.body.once('close', () => (this.ended ? resolve() : reject(cutOff())));
      this.body.resume();
    });
  }

  /** Hands held bytes to the current stretch and reads on while it wants more. */
  private flow(): void {
    const stretch = this.stretch;
    if (!stretch || this.failure) return;
    while (this.held.length > 0 && stretch.left > 0) {
      if (!this.give(stretch, this.held.shift()!)) return;
    }
    if (stretch.left > 0) this.body.resume();
  }

  private take(chunk: Buffer): void {
    if (this.draining) return;
    const stretch = this.stretch;
    if (!stretch || stretch.left === 0) {
      this.held.push(chunk);
      this.body.pause();
      return;
    }
    if (!this.give(stretch, chunk)) this.body.pause();
  }

  /** Gives `chunk` to `stretch`; false when no more should be read for now. */
  private give(stretch: Stretch, chunk: Buffer): boolean {
    let part = chunk;
    if (part.length > stretch.left) {
      this.held.unshift(part.subarray(stretch.left));
      part = part.subarray(0, stretch.left);
    }
    stretch.left -= part.length;
    // A reader that destroyed its stream (a failed write) has given up on it: the rest is dropped.
    const wantsMore = stretch.dropping || stretch.stream.destroyed ? true : stretch.stream.push(part);
    if (stretch.left === 0) {
      if (!stretch.dropping && !stretch.stream.destroyed) stretch.stream.push(null);
      stretch.resolve();
      return false;
    }
    return wantsMore;
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const stretch = this.stretch;
    if (!stretch || stretch.left === 0) return;
    if (!stretch.stream.destroyed) stretch.stream.destroy(error);
    stretch.reject(error);
  }
}
