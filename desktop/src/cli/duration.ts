/** A duration typed on the command line: '90s', '2m', '1h', '1m30s' or plain seconds ('120'). */
export function parseDuration(text: string): number {
  const trimmed = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const parts = /^(?:(\d+)h)?\s*(?:(\d+)m(?:in)?)?\s*(?:(\d+)s)?$/.exec(trimmed);
  if (!parts || trimmed === '') throw new Error(`Not a duration: ${text} (e.g. 2m, 90s, 1h).`);
  const [, h = '0', m = '0', s = '0'] = parts;
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000;
}

/** '2 min', '90 s', '1 h 5 min': how long, in the words the retry lines use. */
export function describeDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60 || seconds % 60 !== 0)
    return seconds < 120 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = seconds / 60;
  if (minutes < 60 || minutes % 60 !== 0)
    return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  return `${minutes / 60} h`;
}
