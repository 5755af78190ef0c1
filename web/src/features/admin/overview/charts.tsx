/**
 * The overview's two kinds of chart, drawn with visx (docs/decisions.md 'Staff overview charts'): columns
 * over days (stacked when there are several series) and horizontal bars per named thing. A chart is only a
 * picture here: each is hidden from screen readers, which get the summary and the table beside it.
 */
import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { useEffect, useRef, useState, type RefObject } from 'react';

/** Colours that keep 3:1 against white and apart from each other. */
export const SERIES_COLOURS = [
  '#1d4ed8',
  '#b45309',
  '#047857',
  '#7c3aed',
  '#be123c',
  '#0e7490',
  '#4d7c0f',
  '#525252',
];

/** The width the chart's box has now, following the window (a phone's 375 px, a desktop's more). */
function useWidth(ref: RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => setWidth(Math.floor(box.getBoundingClientRect().width));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

export interface Series {
  name: string;
  values: number[];
}

const AXIS_TEXT = { fontSize: 11, fill: '#344054' } as const;

/** Columns per category (a day), one per series stacked. */
export function ColumnChart({
  categories,
  labelOf,
  series,
  format,
  height = 220,
  whole = false,
}: {
  categories: string[];
  labelOf: (category: string) => string;
  series: Series[];
  format: (value: number) => string;
  height?: number;
  /** Values are counts: only whole numbers on the axis. */
  whole?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const margin = { top: 8, right: 8, bottom: 28, left: 56 };
  const innerWidth = Math.max(0, width - margin.left - margin.right);
  const innerHeight = height - margin.top - margin.bottom;
  const totals = categories.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const x = scaleBand({ domain: categories, range: [0, innerWidth], padding: 0.2 });
  const y = scaleLinear({ domain: [0, Math.max(1, ...totals)], range: [innerHeight, 0], nice: true });
  // As many day labels as fit, about one per 56 px.
  const every = Math.max(1, Math.ceil(categories.length / Math.max(1, Math.floor(innerWidth / 56))));
  const ticks = categories.filter((_, i) => i % every === 0);
  return (
    <div ref={box} className="staff-chart">
      {width > 0 ? (
        <svg width={width} height={height} aria-hidden="true" focusable="false">
          <Group left={margin.left} top={margin.top}>
            {categories.map((category, i) => {
              let base = 0;
              return series.map((s, k) => {
                const value = s.values[i] ?? 0;
                const top = y(base + value);
                const bottom = y(base);
                base += value;
                return value > 0 ? (
                  <Bar
                    key={`${category}:${s.name}`}
                    x={x(category) ?? 0}
                    y={top}
                    width={x.bandwidth()}
                    height={Math.max(0, bottom - top)}
                    fill={SERIES_COLOURS[k % SERIES_COLOURS.length]}
                  />
                ) : null;
              });
            })}
            <AxisLeft
              scale={y}
              // Counts have whole ticks only (no '0.5 orders'); money keeps the scale's own.
              tickValues={y.ticks(4).filter((v) => !whole || Number.isInteger(v))}
              tickFormat={(v) => format(Number(v))}
              tickLabelProps={() => ({ ...AXIS_TEXT, textAnchor: 'end', dx: -4, dy: 3 })}
            />
            <AxisBottom
              top={innerHeight}
              scale={x}
              tickValues={ticks}
              tickFormat={(v) => labelOf(String(v))}
              tickLabelProps={() => ({ ...AXIS_TEXT, textAnchor: 'middle' })}
            />
          </Group>
        </svg>
      ) : null}
    </div>
  );
}

export interface RowDatum {
  label: string;
  value: number;
  /** The whole the value is part of (a limit): drawn as a pale track behind the bar. */
  whole?: number;
}

/** One horizontal bar per row, its value written at its end. */
export function RowChart({ rows, format }: { rows: RowDatum[]; format: (value: number) => string }) {
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const rowHeight = 28;
  const labelWidth = Math.min(160, Math.max(90, Math.floor(width * 0.35)));
  const margin = { top: 4, right: 48, bottom: 4, left: labelWidth };
  const innerWidth = Math.max(0, width - margin.left - margin.right);
  const height = rows.length * rowHeight + margin.top + margin.bottom;
  const max = Math.max(1, ...rows.map((r) => Math.max(r.value, r.whole ?? 0)));
  const x = scaleLinear({ domain: [0, max], range: [0, innerWidth] });
  const y = scaleBand({
    domain: rows.map((r) => r.label),
    range: [0, rows.length * rowHeight],
    padding: 0.25,
  });
  // Long names are cut to what fits beside the bars; the table beside the chart has them whole.
  const fit = Math.max(6, Math.floor(labelWidth / 7));
  const short = (label: string) => (label.length > fit ? `${label.slice(0, fit - 1)}…` : label);
  return (
    <div ref={box} className="staff-chart">
      {width > 0 ? (
        <svg width={width} height={height} aria-hidden="true" focusable="false">
          <Group left={margin.left} top={margin.top}>
            {rows.map((row) => {
              const top = y(row.label) ?? 0;
              return (
                <g key={row.label}>
                  <text x={-6} y={top + y.bandwidth() / 2} dy={4} textAnchor="end" {...AXIS_TEXT}>
                    {short(row.label)}
                  </text>
                  {row.whole !== undefined ? (
                    <Bar x={0} y={top} width={x(row.whole)} height={y.bandwidth()} fill="#e4e7ec" />
                  ) : null}
                  <Bar x={0} y={top} width={x(row.value)} height={y.bandwidth()} fill={SERIES_COLOURS[0]} />
                  <text x={x(row.value) + 4} y={top + y.bandwidth() / 2} dy={4} {...AXIS_TEXT}>
                    {format(row.value)}
                  </text>
                </g>
              );
            })}
          </Group>
        </svg>
      ) : null}
    </div>
  );
}
