/**
 * The bandwidth limit in force, from three layers: the saved settings (the window's Settings, `av-upload
 * settings`), this process's run overrides (`av-upload upload --bandwidth 2M` applies to that run and is
 * never saved), and the schedule's window for this hour. One token bucket carries it to every part in
 * flight; the schedule is looked at every half minute and on every change.
 */
import { DEFAULT_SETTINGS, MAX_PART_CONCURRENCY } from './state.js';
import type { EngineSettings } from './state.js';
import { bandwidthWindowSchema, MAX_WINDOWS, rateAt } from './schedule.js';
import type { BandwidthWindow } from './schedule.js';
import { TokenBucket } from './token-bucket.js';

/** Settings for this engine process only (never saved); null schedule: no schedule for this run. */
export interface RunOverrides {
  /** Bytes per second; 0 = unlimited. */
  bandwidth?: number;
  parallel?: number;
  schedule?: BandwidthWindow[] | null;
}

export function clampSettings(
  settings: Partial<EngineSettings>,
  base: EngineSettings = DEFAULT_SETTINGS,
): EngineSettings {
  const parts = Math.round(settings.partConcurrency ?? base.partConcurrency);
  const rate = Math.round(settings.bandwidthBytesPerSecond ?? base.bandwidthBytesPerSecond);
  // Windows that do not parse are dropped rather than trusted (a hand-edited settings file, say).
  const schedule = (settings.schedule ?? base.schedule ?? [])
    .flatMap((w) => {
      const parsed = bandwidthWindowSchema.safeParse(w);
      return parsed.success ? [parsed.data] : [];
    })
    .slice(0, MAX_WINDOWS);
  return {
    partConcurrency: Math.min(MAX_PART_CONCURRENCY, Math.max(1, Number.isFinite(parts) ? parts : 4)),
    bandwidthBytesPerSecond: Math.max(0, Number.isFinite(rate) ? rate : 0),
    ...(schedule.length > 0 ? { schedule } : {}),
  };
}

/** The saved settings with this run's overrides laid over them. */
export function effective(saved: EngineSettings, overrides: RunOverrides): EngineSettings {
  const merged: Partial<EngineSettings> = {
    partConcurrency: overrides.parallel ?? saved.partConcurrency,
    bandwidthBytesPerSecond: overrides.bandwidth ?? saved.bandwidthBytesPerSecond,
  };
  const schedule = overrides.schedule === undefined ? saved.schedule : (overrides.schedule ?? []);
  // A run's bandwidth without a schedule of its own means that rate, whatever the saved schedule says.
  if (overrides.bandwidth !== undefined && overrides.schedule === undefined) merged.schedule = [];
  else merged.schedule = schedule ?? [];
  return clampSettings(merged, saved);
}

export class BandwidthScheduler {
  readonly bucket: TokenBucket;
  private overrides: RunOverrides = {};
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly saved: () => EngineSettings,
    private readonly clock: () => Date,
    /** Told when the parts in flight per file change. */
    private readonly onParallel: (parts: number) => void,
    bucket?: TokenBucket,
  ) {
    this.bucket = bucket ?? new TokenBucket(rateAt(this.settings, clock()));
  }

  /** The settings in force: saved defaults with this run's overrides. */
  get settings(): EngineSettings {
    return effective(this.saved(), this.overrides);
  }

  get runOverrides(): RunOverrides {
    return { ...this.overrides };
  }

  /** The bandwidth limit in effect now: the schedule's window for this hour, else the plain limit. */
  get rateNow(): number {
    return rateAt(this.settings, this.clock());
  }

  setOverrides(overrides: RunOverrides): void {
    this.overrides = { ...this.overrides, ...overrides };
    this.apply();
  }

  /** Carries the settings in force to the bucket and the client (on every change, each half minute). */
  apply(): void {
    const rate = this.rateNow;
    if (rate !== this.bucket.bytesPerSecond) this.bucket.setRate(rate);
    this.onParallel(this.settings.partConcurrency);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.apply(), 30_000);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
