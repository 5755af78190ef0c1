/**
 * A rate typed on the command line, in the units the progress line prints (formatSpeed): KB, MB and GB of
 * 1024, so `--bandwidth 2M` shows as "2 MB/s" while it runs. '2M', '2MB', '2 MB/s', '500k', '1.5G',
 * '2000000' (bytes) → bytes per second; 0 = unlimited. 'Ki'/'Mi'/'Gi' are taken as the same units.
 */
const FACTORS: Record<string, number> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

export const RATE_UNITS = 'KB and MB as the progress line shows them: 1 MB = 1024 KB = 1,048,576 bytes';

export function parseRate(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:([kmg])i?)?b?(?:\/s)?\s*$/i.exec(text);
  if (!match) throw new Error(`Not a rate: ${text} (e.g. 2M for 2 MB/s, 500k, 0 for unlimited).`);
  return Math.round(Number(match[1]) * (match[2] ? FACTORS[match[2].toLowerCase()]! : 1));
}
