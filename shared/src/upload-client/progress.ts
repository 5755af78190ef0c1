/** Transfer speed and time left from a sliding window of byte counts. */

export interface ProgressSnapshot {
  /** Bytes the server has confirmed (whole parts), including parts it held before this session. */
  sentBytes: number;
  totalBytes: number;
  /** 0–100, whole percent, floor (100 only when everything is sent). */
  percent: number;
  /** Bytes per second over the last few seconds; 0 until measured. */
  bytesPerSecond: number;
  /** Seconds left at that speed; null when unknown. */
  secondsLeft: number | null;
}

export function percentOf(sent: number, total: number): number {
  if (total <= 0) return sent >= total ? 100 : 0;
  return Math.min(100, Math.floor((sent / total) * 100));
}

export class SpeedMeter {
  private samples: { at: number; bytes: number }[] = [];

  constructor(
    private readonly now: () => number,
    private readonly windowMs = 5_000,
  ) {}

  /** Records that `bytes` more were transferred now. */
  add(bytes: number): void {
    const at = this.now();
    this.samples.push({ at, bytes });
    this.trim(at);
  }

  reset(): void {
    this.samples = [];
  }

  /** Bytes per second within the window; 0 with fewer than two samples' worth of time. */
  rate(): number {
    const at = this.now();
    this.trim(at);
    if (this.samples.length === 0) return 0;
    const first = this.samples[0]!;
    const elapsed = Math.max(at - first.at, 1_000);
    const total = this.samples.reduce((sum, s) => sum + s.bytes, 0);
    return (total / elapsed) * 1000;
  }

  private trim(at: number): void {
    while (this.samples.length > 0 && at - this.samples[0]!.at > this.windowMs) this.samples.shift();
  }
}

export function snapshot(sent: number, total: number, bytesPerSecond: number): ProgressSnapshot {
  const left = total - sent;
  return {
    sentBytes: sent,
    totalBytes: total,
    percent: percentOf(sent, total),
    bytesPerSecond,
    secondsLeft: left <= 0 ? 0 : bytesPerSecond > 0 ? Math.ceil(left / bytesPerSecond) : null,
  };
}
