import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_WRITE_BATCH_BYTES, writeBatchBytes } from '../src/adapters/storage/write-batch.js';

/**
 * The local driver's write batch follows the processor's L2 cache as Linux's sysfs describes it
 * (/sys/devices/system/cpu/cpu0/cache/indexN/{level,type,size}), within 256 KiB and 1 MiB.
 */
const root = mkdtempSync(path.join(tmpdir(), 'avp-cpu-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** A cpu0/cache folder with these caches, as sysfs lists them. */
function caches(...list: Array<{ level: number; type: string; size: string }>): string {
  const dir = path.join(root, `cpu-${++n}`);
  list.forEach((cache, i) => {
    mkdirSync(path.join(dir, `index${i}`), { recursive: true });
    writeFileSync(path.join(dir, `index${i}`, 'level'), `${cache.level}\n`);
    writeFileSync(path.join(dir, `index${i}`, 'type'), `${cache.type}\n`);
    writeFileSync(path.join(dir, `index${i}`, 'size'), `${cache.size}\n`);
  });
  return dir;
}

const l1 = [
  { level: 1, type: 'Data', size: '32K' },
  { level: 1, type: 'Instruction', size: '32K' },
];

describe('the local driver’s write batch', () => {
  it('is the L2 cache’s size: 1 MiB on a processor with 1 MiB of L2, 512 KiB with 512 KiB', () => {
    expect(writeBatchBytes(caches(...l1, { level: 2, type: 'Unified', size: '1024K' }))).toBe(1024 * 1024);
    expect(writeBatchBytes(caches(...l1, { level: 2, type: 'Unified', size: '512K' }))).toBe(512 * 1024);
    expect(writeBatchBytes(caches(...l1, { level: 2, type: 'Data', size: '1M' }))).toBe(1024 * 1024);
  });

  it('stays within 256 KiB and 1 MiB', () => {
    expect(writeBatchBytes(caches(...l1, { level: 2, type: 'Unified', size: '2048K' }))).toBe(1024 * 1024);
    expect(writeBatchBytes(caches(...l1, { level: 2, type: 'Unified', size: '128K' }))).toBe(256 * 1024);
  });

  it('is 256 KiB where the L2 cannot be read: no sysfs, no L2 listed, a size it cannot parse', () => {
    expect(DEFAULT_WRITE_BATCH_BYTES).toBe(256 * 1024);
    expect(writeBatchBytes(path.join(root, 'nowhere'))).toBe(DEFAULT_WRITE_BATCH_BYTES);
    expect(writeBatchBytes(caches(...l1, { level: 3, type: 'Unified', size: '32768K' }))).toBe(
      DEFAULT_WRITE_BATCH_BYTES,
    );
    expect(writeBatchBytes(caches({ level: 2, type: 'Instruction', size: '1024K' }))).toBe(
      DEFAULT_WRITE_BATCH_BYTES,
    );
    expect(writeBatchBytes(caches({ level: 2, type: 'Unified', size: 'lots' }))).toBe(
      DEFAULT_WRITE_BATCH_BYTES,
    );
  });

  it('on this machine, somewhere within its bounds', () => {
    const bytes = writeBatchBytes();
    expect(bytes).toBeGreaterThanOrEqual(256 * 1024);
    expect(bytes).toBeLessThanOrEqual(1024 * 1024);
  });
});
