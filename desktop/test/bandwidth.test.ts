/**
 * The bandwidth scheduler: a run's overrides apply to that engine only and are never saved; the saved
 * defaults stay as set; a run's rate wins over the saved schedule unless the run brings its own.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { effective, JsonFileStore, UploadEngine } from '../src/engine/index.js';
import type { BandwidthWindow, EngineSettings } from '../src/engine/index.js';
import { tempDir } from './helpers/api.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const evenings: BandwidthWindow = {
  days: [0, 1, 2, 3, 4, 5, 6],
  from: '18:00',
  to: '23:00',
  bytesPerSecond: 0,
};
const saved: EngineSettings = {
  partConcurrency: 4,
  bandwidthBytesPerSecond: 1_000_000,
  schedule: [evenings],
};

describe('run overrides and saved settings', () => {
  it('lays a run’s values over the saved ones', () => {
    expect(effective(saved, {})).toEqual(saved);
    expect(effective(saved, { parallel: 2 })).toEqual({ ...saved, partConcurrency: 2 });
    // A run's own rate is the rate of that run, whatever the saved schedule says.
    expect(effective(saved, { bandwidth: 20 * 1024 * 1024 })).toEqual({
      partConcurrency: 4,
      bandwidthBytesPerSecond: 20 * 1024 * 1024,
    });
    expect(effective(saved, { schedule: null })).toEqual({
      partConcurrency: 4,
      bandwidthBytesPerSecond: 1_000_000,
    });
    expect(effective(saved, { parallel: 99, bandwidth: -5 })).toMatchObject({
      partConcurrency: 8,
      bandwidthBytesPerSecond: 0,
    });
  });

  it('never saves a run’s overrides: the next engine on the same queue has the saved defaults', async () => {
    const work = await tempDir();
    cleanups.push(work.remove);
    const file = path.join(work.dir, 'queue.json');
    // 19:00 on a Monday: inside the saved evening window (unlimited).
    const clock = () => new Date(2027, 0, 4, 19, 0);
    const first = new UploadEngine({
      baseUrl: 'http://127.0.0.1:9',
      store: new JsonFileStore(file),
      token: () => null,
      clock,
    });
    cleanups.push(() => first.stop());
    first.setSettings(saved);
    expect(first.bandwidthNow).toBe(0);
    first.setRunOverrides({ bandwidth: 2 * 1024 * 1024, parallel: 1 });
    expect(first.effectiveSettings).toEqual({ partConcurrency: 1, bandwidthBytesPerSecond: 2 * 1024 * 1024 });
    expect(first.bandwidthNow).toBe(2 * 1024 * 1024);
    expect(first.bucket.bytesPerSecond).toBe(2 * 1024 * 1024);
    expect(first.client.partConcurrency).toBe(1);
    expect(first.settings).toEqual(saved);
    await first.stop();
    const second = new UploadEngine({
      baseUrl: 'http://127.0.0.1:9',
      store: new JsonFileStore(file),
      token: () => null,
      clock,
    });
    cleanups.push(() => second.stop());
    expect(second.settings).toEqual(saved);
    expect(second.effectiveSettings).toEqual(saved);
    expect(second.bandwidthNow).toBe(0);
  });
});
