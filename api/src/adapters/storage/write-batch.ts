import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The batch where the processor's second-level cache cannot be read (not Linux, or no sysfs). */
export const DEFAULT_WRITE_BATCH_BYTES = 256 * 1024;
const LEAST = 256 * 1024;
const MOST = 1024 * 1024;

/**
 * How many bytes of a part the local driver gathers into one positional write: the size of the
 * processor's L2 cache, kept between 256 KiB and 1 MiB. Each write is a hand-off to a thread of libuv's
 * pool, woken for it (on a virtual machine an interrupt between processors, itself dear), so fewer and
 * larger writes cost less; but what the kernel copies into the page cache must still be in the processor's
 * cache from the socket read and the hash, or the copy reads cold memory. bench:many's 200 files of
 * 20 MiB on an EPYC with 1 MiB of L2 per core, the server's CPU per file: 256 KiB 60-86 ms, 512 KiB 62-65,
 * 1 MiB 51-53, 2 MiB 68-76 (bare per-file PUT 50-59). An earlier machine's perf had shown the page-cache
 * copy 5 to 30 times dearer at 1 MiB than at 256 KiB (its cache sizes were not recorded): hence 256 KiB
 * where the cache cannot be read.
 */
export function writeBatchBytes(cpuRoot = '/sys/devices/system/cpu/cpu0/cache'): number {
  const l2 = secondLevelCacheBytes(cpuRoot);
  return l2 === null ? DEFAULT_WRITE_BATCH_BYTES : Math.min(MOST, Math.max(LEAST, l2));
}

/** This process's batch, read once. */
export const WRITE_BATCH_BYTES = writeBatchBytes();

/** The size of cpu0's L2 (data or unified) cache as sysfs tells it ("1024K"), or null. */
function secondLevelCacheBytes(cpuRoot: string): number | null {
  let entries: string[];
  try {
    entries = readdirSync(cpuRoot).filter((name) => /^index\d+$/.test(name));
  } catch {
    return null;
  }
  for (const entry of entries) {
    const read = (file: string) => {
      try {
        return readFileSync(path.join(cpuRoot, entry, file), 'utf8').trim();
      } catch {
        return '';
      }
    };
    if (read('level') !== '2' || read('type') === 'Instruction') continue;
    const size = /^(\d+)([KMG]?)$/.exec(read('size'));
    if (!size) continue;
    const unit = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[size[2] as '' | 'K' | 'M' | 'G'];
    return Number(size[1]) * unit;
  }
  return null;
}
