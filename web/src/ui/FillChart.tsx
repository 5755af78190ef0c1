/**
 * Fill chart: a bar filled from 0 to 100 (react-aria Meter). With a `range` the good band is marked on the
 * track, and a value outside it is drawn in the error colour and announced as such.
 */
import type { ReactNode } from 'react';
import { Label, Meter } from 'react-aria-components';
import { classNames } from './field';
import { widgetDefaults } from './theme';

export interface FillChartProps {
  label: ReactNode;
  /** 0 to 100; clamped for drawing. */
  value: number;
  /** The acceptable band [low, high] within 0 to 100. */
  range?: readonly [number, number] | undefined;
  /** Unit shown after the number (default '%'). */
  unit?: string;
  className?: string;
}

export function isOutsideRange(value: number, range?: readonly [number, number]): boolean {
  if (!range) return false;
  const [low, high] = range;
  return value < low || value > high;
}

export function FillChart({ label, value, range, unit = '%', className }: FillChartProps) {
  const { min, max } = widgetDefaults.fillChart;
  const outside = isOutsideRange(value, range);
  const shown = `${value}${unit}`;
  const valueLabel = range
    ? `${shown}, ${outside ? 'outside' : 'within'} the range ${range[0]} to ${range[1]}`
    : shown;
  return (
    <Meter
      className={classNames('kit-fill-chart', className)}
      value={value}
      minValue={min}
      maxValue={max}
      valueLabel={valueLabel}
      data-outside={outside || undefined}
    >
      {({ percentage }) => (
        <>
          <div className="kit-fill-chart__head">
            <Label className="kit-label">{label}</Label>
            <span className="kit-fill-chart__value">{shown}</span>
          </div>
          <div className="kit-fill-chart__track">
            {range ? (
              <div
                className="kit-fill-chart__band"
                style={{ left: `${range[0]}%`, width: `${Math.max(0, range[1] - range[0])}%` }}
              />
            ) : null}
            <div className="kit-fill-chart__fill" style={{ width: `${percentage}%` }} />
          </div>
        </>
      )}
    </Meter>
  );
}
