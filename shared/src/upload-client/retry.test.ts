import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, isRetryableAnswer, isRetryableStatus, retryDelayMs } from './retry.js';
import { percentOf, snapshot, SpeedMeter } from './progress.js';

const policy = { retries: 5, baseMs: 100, maxMs: 1_000 };

describe('retryDelayMs: exponential backoff with equal jitter', () => {
  it.each([
    [1, 0, 50],
    [1, 0.999999, 100],
    [2, 0, 100],
    [3, 0.5, 300],
    [4, 1, 800],
    [5, 1, 1_000],
    [9, 0, 500],
    [0, 1, 100],
  ])('attempt %i with random %d waits %i ms', (attempt, random, expected) => {
    expect(retryDelayMs(attempt, policy, () => random)).toBe(expected);
  });

  it('uses Math.random by default and stays within bounds', () => {
    const delay = retryDelayMs(2, DEFAULT_RETRY);
    expect(delay).toBeGreaterThanOrEqual(DEFAULT_RETRY.baseMs);
    expect(delay).toBeLessThanOrEqual(DEFAULT_RETRY.baseMs * 2);
  });
});

describe('isRetryableStatus', () => {
  it.each([
    [500, true],
    [502, true],
    [503, true],
    [408, true],
    [429, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [409, false],
    [413, false],
    [422, false],
  ])('%i → %s', (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });
});

describe('isRetryableAnswer: a 409 that only means busy, and a part the client did not cut off, are tried again', () => {
  it.each([
    [409, 'part_in_progress', true],
    [409, 'completion_in_progress', true],
    [409, 'parts_missing', false],
    [409, 'file_complete', false],
    [400, 'part_in_progress', false],
    [400, 'part_aborted', true],
    [409, 'part_aborted', false],
    [400, 'bad_part_size', false],
    [503, 'http_error', true],
    [422, 'checksum_mismatch', false],
  ])('%i %s → %s', (status, code, expected) => {
    expect(isRetryableAnswer(status, code)).toBe(expected);
  });
});

describe('progress', () => {
  it.each([
    [0, 100, 0],
    [50, 100, 50],
    [99.9, 100, 99],
    [100, 100, 100],
    [0, 0, 100],
  ])('percentOf(%d, %d) = %i', (sent, total, expected) => {
    expect(percentOf(sent, total)).toBe(expected);
  });

  it.each([
    [0, 1000, 0, null],
    [500, 1000, 100, 5],
    [1000, 1000, 0, 0],
    [10, 1000, 33, 30],
  ])('snapshot(%i of %i at %i B/s) leaves %s s', (sent, total, rate, left) => {
    expect(snapshot(sent, total, rate).secondsLeft).toBe(left);
  });

  it('measures speed over a sliding window, at least one second long', () => {
    let now = 0;
    const meter = new SpeedMeter(() => now, 5_000);
    expect(meter.rate()).toBe(0);
    meter.add(1_000);
    expect(meter.rate()).toBe(1_000);
    now = 2_000;
    meter.add(3_000);
    expect(meter.rate()).toBe(2_000);
    now = 8_000;
    expect(meter.rate()).toBe(0);
    meter.add(500);
    meter.reset();
    expect(meter.rate()).toBe(0);
  });
});
