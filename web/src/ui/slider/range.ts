/** Pure rules of the range slider (SPEC §5): the minimum gap between two handles and 'Unlimited Max'. */

export type SliderValue = number | readonly [number, number];

/**
 * Keeps two handles at least `gap` apart. Whichever handle moved is held back; the other stays where it
 * was. Both end up within [min, max].
 */
export function keepGap(
  previous: readonly [number, number],
  next: readonly [number, number],
  gap: number,
  min: number,
  max: number,
): [number, number] {
  let [low, high] = next;
  if (high - low < gap) {
    if (low !== previous[0]) low = high - gap;
    else high = low + gap;
  }
  low = Math.max(min, Math.min(low, max));
  high = Math.max(min, Math.min(high, max));
  return [low, high];
}

/** The slider's own step for a precision: 0 → 1, 1 → 0.1, 2 → 0.01. */
export function stepForPrecision(precision: number): number {
  return 10 ** -Math.max(0, Math.floor(precision));
}

export function roundTo(value: number, precision: number): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** Math.max(0, Math.floor(precision));
  return Math.round(value * factor) / factor;
}

/** Whether the range's upper end is unlimited ('Unlimited Max' ticked). */
export function isUnlimited(value: SliderValue): boolean {
  return typeof value !== 'number' && value[1] === Infinity;
}
