/**
 * Rates as a person types and reads them, in one unit everywhere: the progress display (formatSpeed), the
 * CLI's `--bandwidth 2M`, a schedule window's rate and the window's KB/s fields all count KB and MB of
 * 1024 (1 MB = 1,048,576 bytes), so `2M` shows as "2 MB/s" while it runs.
 */
import { formatSpeed } from '@avp/shared';

const FACTORS: Record<string, number> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

export const RATE_UNITS = 'KB and MB as the progress line shows them: 1 MB = 1024 KB = 1,048,576 bytes';

/**
 * '2M', '2MB', '2 MB/s', '500k', '1.5G', '2000000' (bytes) → bytes per second; 0 = unlimited. 'Ki',
 * 'Mi' and 'Gi' are taken as the same units. Throws a readable error.
 */
export function parseRate(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:([kmg])i?)?b?(?:\/s)?\s*$/i.exec(text);
  if (!match) throw new Error(`Not a rate: ${text} (e.g. 2M for 2 MB/s, 500k, 0 for unlimited).`);
  return Math.round(Number(match[1]) * (match[2] ? FACTORS[match[2].toLowerCase()]! : 1));
}

/** '2 MB/s', or 'unlimited' for 0. */
export function describeRate(bytesPerSecond: number): string {
  return bytesPerSecond === 0 ? 'unlimited' : formatSpeed(bytesPerSecond);
}
