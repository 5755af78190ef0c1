import { describe, expect, it } from 'vitest';
import { missingParts, partRange, partSizeFor, planUpload } from './upload-plan.js';

const MiB = 1_048_576;
const SIX = 6_291_456;
const GiB = 1_073_741_824;

describe('DESIGN Uploads / SPEC §9: 6,291,456-byte parts, grown by whole MiB to stay within 10,000', () => {
  it.each([
    ['empty file', 0, SIX, 0, 0],
    ['one byte', 1, SIX, 1, 1],
    ['one byte short of a part', SIX - 1, SIX, 1, SIX - 1],
    ['exactly one part', SIX, SIX, 1, SIX],
    ['one byte over a part', SIX + 1, SIX, 2, 1],
    ['exact multiple', SIX * 3, SIX, 3, SIX],
    ['1 GiB', GiB, SIX, 171, GiB - 170 * SIX],
    ['exactly 10,000 parts of 6 MiB', SIX * 10_000, SIX, 10_000, SIX],
    ['one byte more: 7 MiB parts', SIX * 10_000 + 1, 7 * MiB, 8_572, SIX * 10_000 + 1 - 8_571 * 7 * MiB],
    ['exactly 10,000 parts of 7 MiB', 7 * MiB * 10_000, 7 * MiB, 10_000, 7 * MiB],
    ['200 GiB: 21 MiB parts', 200 * GiB, 21 * MiB, 9_753, 200 * GiB - 9_752 * 21 * MiB],
    ['5 TiB: 525 MiB parts', 5 * 1024 * GiB, 525 * MiB, 9_987, 5 * 1024 * GiB - 9_986 * 525 * MiB],
  ] as const)('%s (%i bytes)', (_name, size, partSize, partCount, lastPartSize) => {
    expect(partSizeFor(size)).toBe(partSize);
    const plan = planUpload(size);
    expect(plan).toEqual({ fileSize: size, partSize, partCount, lastPartSize });
    expect(plan.partCount).toBeLessThanOrEqual(10_000);
  });

  it.each([
    // Near the top of the safe integers a float division would lose the one extra byte.
    ['largest safe size', Number.MAX_SAFE_INTEGER],
    ['an exact multiple of the MiB part near the top', 858_993 * 10_000 * MiB],
    ['one byte over an exact multiple near the top', 858_992 * 10_000 * MiB + 1],
  ])('never exceeds 10,000 parts: %s', (_name, size) => {
    const plan = planUpload(size);
    expect(plan.partCount).toBeLessThanOrEqual(10_000);
    expect(plan.partSize % MiB).toBe(0);
    // The smallest such size: one MiB less would need more than 10,000 parts.
    expect(BigInt(size) > 10_000n * BigInt(plan.partSize - MiB)).toBe(true);
    expect((plan.partCount - 1) * plan.partSize + plan.lastPartSize).toBe(size);
  });

  it.each([
    ['negative', -1],
    ['fractional', 1.5],
    ['NaN', Number.NaN],
    ['beyond the safe integers', 2 ** 53],
    ['infinite', Number.POSITIVE_INFINITY],
  ])('rejects a %s size', (_name, size) => {
    expect(() => planUpload(size)).toThrow(RangeError);
    expect(() => partSizeFor(size)).toThrow(RangeError);
  });
});

describe('DESIGN Uploads: part byte ranges (1-based part numbers, end exclusive)', () => {
  const plan = planUpload(SIX * 2 + 100);

  it.each([
    [1, { start: 0, end: SIX, size: SIX }],
    [2, { start: SIX, end: SIX * 2, size: SIX }],
    [3, { start: SIX * 2, end: SIX * 2 + 100, size: 100 }],
  ] as const)('part %i -> %j', (part, range) => {
    expect(partRange(plan, part)).toEqual(range);
  });

  it('the last part of an exact multiple is a whole part', () => {
    expect(partRange(planUpload(SIX * 2), 2)).toEqual({ start: SIX, end: SIX * 2, size: SIX });
  });

  it.each([0, 4, -1, 1.5, Number.NaN])('rejects part number %s', (part) => {
    expect(() => partRange(plan, part)).toThrow(RangeError);
  });

  it('an empty file has no parts at all', () => {
    expect(() => partRange(planUpload(0), 1)).toThrow(RangeError);
  });
});

describe('DESIGN Uploads: resuming asks which parts are still missing', () => {
  const plan = planUpload(SIX * 4 + 1); // 5 parts

  it.each([
    [[], [1, 2, 3, 4, 5]],
    [[1, 2, 3, 4, 5], []],
    [
      [5, 1, 3],
      [2, 4],
    ],
    [
      [2, 2, 2],
      [1, 3, 4, 5],
    ],
    [
      [0, 6, -1, 2.5, 4],
      [1, 2, 3, 5],
    ],
  ] as const)('received %j -> missing %j', (received, missing) => {
    expect(missingParts(plan, received)).toEqual(missing);
  });

  it('accepts any iterable, such as a Set', () => {
    expect(missingParts(plan, new Set([1, 2]))).toEqual([3, 4, 5]);
    expect(missingParts(planUpload(0), [])).toEqual([]);
  });
});
