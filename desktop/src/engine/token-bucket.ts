/**
 * A token bucket for the bandwidth limit: tokens are bytes, refilled at `rate` per second up to a small
 * capacity, so a pause never turns into a burst. One bucket is shared by every part in flight; the limit
 * may change at any time (0 = unlimited).
 */
export class TokenBucket {
  private tokens: number;
  private last: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private rate: number,
    private readonly now: () => number = () => performance.now(),
    /** How a wait for tokens passes (a test's clock advances itself instead). */
    private readonly sleep: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.tokens = 0;
    this.last = this.now();
  }

  get bytesPerSecond(): number {
    return this.rate;
  }

  setRate(bytesPerSecond: number): void {
    this.refill();
    this.rate = Math.max(0, bytesPerSecond);
    this.tokens = Math.min(this.tokens, this.capacity());
  }

  /** At most 50 ms of traffic, at least 16 KiB, so a chunk always fits. */
  capacity(): number {
    return Math.max(16 * 1024, this.rate / 20);
  }

  private refill(): void {
    const at = this.now();
    if (this.rate > 0)
      this.tokens = Math.min(this.capacity(), this.tokens + ((at - this.last) / 1000) * this.rate);
    this.last = at;
  }

  /** Resolves when `bytes` may be sent. Callers are served in order (FIFO). */
  take(bytes: number, signal?: AbortSignal): Promise<void> {
    const turn = this.queue.then(() => this.wait(bytes, signal));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async wait(bytes: number, signal?: AbortSignal): Promise<void> {
    if (this.rate <= 0) return;
    // Pieces larger than the bucket are paid in instalments.
    let owed = bytes;
    while (owed > 0) {
      signal?.throwIfAborted();
      if (this.rate <= 0) return;
      this.refill();
      const piece = Math.min(owed, this.capacity());
      if (this.tokens >= piece) {
        this.tokens -= piece;
        owed -= piece;
        continue;
      }
      const ms = Math.max(1, ((piece - this.tokens) / this.rate) * 1000);
      await this.sleep(ms);
    }
  }
}
