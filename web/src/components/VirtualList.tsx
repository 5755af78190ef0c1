/**
 * A list that puts in the page only the rows on screen, and a few either side (issue #34: 2,000 files
 * picked at once). It is a real <ul> of <li>, each row telling assistive technology where it stands in
 * the whole list (aria-posinset of aria-setsize), in a box that scrolls on its own. Rows may differ in
 * height and change it (a line of media facts arriving, a narrow screen wrapping): each drawn row is
 * measured, and rows never drawn count as `estimateHeight`. The space of the rows not drawn is kept by
 * the list's ::before and ::after (virtual-list.css), so no element that is not a list item sits in it.
 *
 * Keyboard: the box takes the focus when it scrolls (arrows, Page Up/Down, Home, End scroll it); from a
 * control in a row, Arrow Down and Arrow Up move to the same control of the next or previous row, drawing
 * it first, so every row is reachable without a pointer. A focused row scrolled out of the drawn window
 * hands the focus to the box rather than to the page's body.
 */
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type LiHTMLAttributes,
  type ReactNode,
} from 'react';
import './virtual-list.css';

export interface VirtualListProps {
  count: number;
  /** A stable key for the row at `index` (its measured height is kept by it). */
  itemKey: (index: number) => string;
  renderItem: (index: number) => ReactNode;
  /** More attributes of a row's <li> (its class, a test id). */
  itemProps?:
    ((index: number) => LiHTMLAttributes<HTMLLIElement> & Record<`data-${string}`, string>) | undefined;
  /** The list's accessible name. */
  label: string;
  /** The height of a row not yet drawn, in px. */
  estimateHeight: number;
  /** Rows drawn beyond each edge of the box, so that a quick scroll does not show a gap. */
  overscan?: number | undefined;
  className?: string | undefined;
  /** The box's height before it is laid out (and where nothing is, under jsdom). */
  fallbackViewport?: number | undefined;
}

const FOCUSABLE = 'button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

interface Layout {
  /** offsets[i]: the top of row i; offsets[count]: the whole height. */
  offsets: Float64Array;
  keys: string[];
}

function layout(
  count: number,
  itemKey: (index: number) => string,
  heights: Map<string, number>,
  estimate: number,
): Layout {
  const offsets = new Float64Array(count + 1);
  const keys = new Array<string>(count);
  let top = 0;
  for (let i = 0; i < count; i++) {
    const key = itemKey(i);
    keys[i] = key;
    offsets[i] = top;
    top += heights.get(key) ?? estimate;
  }
  offsets[count] = top;
  return { offsets, keys };
}

/** The first row whose bottom is below `y`. */
function rowAt(offsets: Float64Array, count: number, y: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (offsets[mid + 1]! <= y) low = mid + 1;
    else high = mid;
  }
  return Math.min(low, Math.max(0, count - 1));
}

function windowOf(offsets: Float64Array, count: number, top: number, height: number, overscan: number) {
  if (count === 0) return { start: 0, end: 0 };
  const first = rowAt(offsets, count, top);
  const last = rowAt(offsets, count, top + height);
  return { start: Math.max(0, first - overscan), end: Math.min(count, last + 1 + overscan) };
}

/**
 * Measures drawn rows (by their data-key) and the box (marked data-vlist-box) with one ResizeObserver,
 * and asks for one render a frame however many rows changed height. Nothing is measured without
 * ResizeObserver (jsdom): every row counts as the estimate there.
 */
function rowTracker(onViewport: (height: number) => void, onMeasured: () => void) {
  const heights = new Map<string, number>();
  let frame: ReturnType<typeof requestAnimationFrame> | null = null;
  const observer =
    typeof ResizeObserver === 'undefined'
      ? null
      : new ResizeObserver((entries) => {
          let changed = false;
          for (const entry of entries) {
            const element = entry.target as HTMLElement;
            if (element.dataset.vlistBox !== undefined) {
              onViewport(element.clientHeight);
              continue;
            }
            const key = element.dataset.key;
            if (key === undefined) continue;
            const size = entry.borderBoxSize?.[0]?.blockSize ?? element.getBoundingClientRect().height;
            if (size > 0 && heights.get(key) !== size) {
              heights.set(key, size);
              changed = true;
            }
          }
          if (changed && frame === null) {
            frame = requestAnimationFrame(() => {
              frame = null;
              onMeasured();
            });
          }
        });
  return {
    heights,
    observe(element: Element): () => void {
      observer?.observe(element);
      return () => observer?.unobserve(element);
    },
    dispose(): void {
      observer?.disconnect();
      if (frame !== null) cancelAnimationFrame(frame);
      frame = null;
    },
  };
}

export function VirtualList({
  count,
  itemKey,
  renderItem,
  itemProps,
  label,
  estimateHeight,
  overscan = 6,
  className,
  fallbackViewport = 480,
}: VirtualListProps) {
  const list = useRef<HTMLUListElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(0);
  // Bumped (at most once a frame) when drawn rows change height, and to retry a pending focus.
  const [, setMeasured] = useState(0);
  const [tracker] = useState(() => rowTracker(setViewport, () => setMeasured((n) => n + 1)));
  const pendingFocus = useRef<{ index: number; slot: number } | null>(null);
  // A row the keyboard moved to: shown in the window too once drawn, when the box is partly off screen.
  const pendingReveal = useRef<number | null>(null);

  const { offsets, keys } = layout(count, itemKey, tracker.heights, estimateHeight);
  const total = offsets[count]!;
  const height = viewport > 0 ? viewport : fallbackViewport;
  const top = Math.min(scrollTop, Math.max(0, total - height));
  const { start, end } = windowOf(offsets, count, top, height, overscan);

  useEffect(() => {
    const stop = list.current ? tracker.observe(list.current) : undefined;
    return () => {
      stop?.();
      tracker.dispose();
    };
  }, [tracker]);

  /** Scrolls the box just enough for row `index` to show whole. */
  const reveal = (index: number) => {
    const element = list.current;
    if (!element) return;
    const rowTop = offsets[index]!;
    const rowBottom = offsets[index + 1]!;
    let next = element.scrollTop;
    if (rowTop < next) next = rowTop;
    else if (rowBottom > next + height) next = rowBottom - height;
    element.scrollTop = next;
    setScrollTop(next);
    pendingReveal.current = index;
  };

  /** Focuses the row asked for by Arrow Down/Up if it is drawn; false while it is still to be drawn. */
  const focusPending = () => {
    const wanted = pendingFocus.current;
    const element = list.current;
    if (!wanted || !element) return false;
    const row = element.querySelector<HTMLLIElement>(`:scope > li[data-index="${wanted.index}"]`);
    if (!row) return false;
    pendingFocus.current = null;
    const controls = [...row.querySelectorAll<HTMLElement>(FOCUSABLE)];
    // The same control as in the row left, else the row itself.
    (controls[Math.min(wanted.slot, controls.length - 1)] ?? row).focus({ preventScroll: true });
    return true;
  };
  useLayoutEffect(() => {
    focusPending();
    const index = pendingReveal.current;
    const row =
      index === null ? null : list.current?.querySelector<HTMLElement>(`:scope > li[data-index="${index}"]`);
    if (row) {
      pendingReveal.current = null;
      row.scrollIntoView({ block: 'nearest' });
    }
  });

  const onScroll = () => {
    const element = list.current;
    if (!element) return;
    const next = element.scrollTop;
    // A focused control whose row leaves the drawn window would take the focus to the page's body.
    const active = document.activeElement;
    if (active && active !== element && element.contains(active)) {
      const row = active.closest<HTMLElement>('li[data-index]');
      const index = Number(row?.dataset.index ?? -1);
      const after = windowOf(offsets, count, next, height, overscan);
      if (index < after.start || index >= after.end) element.focus({ preventScroll: true });
    }
    setScrollTop(next);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const element = list.current;
    if (!element || event.defaultPrevented || count === 0) return;
    const target = event.target as HTMLElement;
    if (target === element) {
      // Home and End reach the ends at once (the rows between are never drawn on the way).
      if (event.key === 'Home' || event.key === 'End') {
        event.preventDefault();
        reveal(event.key === 'Home' ? 0 : count - 1);
        // Drawn already: the render reveal asks for may change nothing.
        setMeasured((n) => n + 1);
      }
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    if (target.matches('input:not([type="checkbox"]):not([type="radio"]), textarea, select')) return;
    const row = target.closest<HTMLLIElement>('li[data-index]');
    if (!row || row.parentElement !== element) return;
    const index = Number(row.dataset.index);
    const next = event.key === 'ArrowDown' ? index + 1 : index - 1;
    if (next < 0 || next >= count) return;
    event.preventDefault();
    const slot = Math.max(0, [...row.querySelectorAll<HTMLElement>(FOCUSABLE)].indexOf(target));
    pendingFocus.current = { index: next, slot };
    reveal(next);
    // Drawn already (the render reveal asks for may change nothing): focused now; else after the render.
    if (!focusPending()) setMeasured((n) => n + 1);
  };

  const rowRef = useCallback(
    (element: HTMLLIElement | null) => (element ? tracker.observe(element) : undefined),
    [tracker],
  );

  const rows: ReactNode[] = [];
  for (let i = start; i < end; i++) {
    const key = keys[i]!;
    rows.push(
      <li
        key={key}
        {...itemProps?.(i)}
        ref={rowRef}
        data-key={key}
        data-index={i}
        aria-setsize={count}
        aria-posinset={i + 1}
        tabIndex={-1}
      >
        {renderItem(i)}
      </li>,
    );
  }
  const scrolls = total > height;
  const style = {
    '--vlist-before': `${offsets[start]}px`,
    '--vlist-after': `${total - offsets[end]!}px`,
  } as CSSProperties;
  return (
    <ul
      ref={list}
      data-vlist-box=""
      className={className ? `kit-vlist ${className}` : 'kit-vlist'}
      aria-label={label}
      tabIndex={scrolls ? 0 : undefined}
      style={style}
      onScroll={onScroll}
      onKeyDown={onKeyDown}
    >
      {rows}
    </ul>
  );
}
