/** '2M', '500k', '1.5MB', '2000000' → bytes per second (k = 1000, M = 1000²; 'Ki'/'Mi' binary). */
export function parseRate(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(k|ki|m|mi|g|gi)?b?(?:\/s)?\s*$/i.exec(text);
  if (!match) throw new Error(`Not a rate: ${text} (e.g. 2M, 500k, 0 for unlimited)`);
  const factors: Record<string, number> = { k: 1e3, ki: 1024, m: 1e6, mi: 1024 ** 2, g: 1e9, gi: 1024 ** 3 };
  return Math.round(Number(match[1]) * (match[2] ? factors[match[2].toLowerCase()]! : 1));
}
