/** One byte range of a Range header (RFC 9110 §14), inclusive; only single ranges are served. */
export type ByteRange = { start: number; end: number };

/**
 * Parses `bytes=a-b`, `bytes=a-` or `bytes=-n` against a file of `size` bytes. Returns undefined when
 * there is no usable header (serve the whole file: multiple ranges and other units are allowed to be
 * ignored), or 'unsatisfiable' (416).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return undefined;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
