/** Human figures for the terminal. */
export function bytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

export function duration(seconds: number | null): string {
  if (seconds === null) return '--:--';
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (v: number) => String(v).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${pad(m)}:${pad(s % 60)}`;
}

/** '2M', '500k', '1.5MB', '2000000' → bytes per second (k = 1000, M = 1000²; 'Ki'/'Mi' binary). */
export function parseRate(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(k|ki|m|mi|g|gi)?b?(?:\/s)?\s*$/i.exec(text);
  if (!match) throw new Error(`Not a rate: ${text} (e.g. 2M, 500k, 0 for unlimited)`);
  const factors: Record<string, number> = { k: 1e3, ki: 1024, m: 1e6, mi: 1024 ** 2, g: 1e9, gi: 1024 ** 3 };
  return Math.round(Number(match[1]) * (match[2] ? factors[match[2].toLowerCase()]! : 1));
}
