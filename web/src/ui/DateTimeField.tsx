/** A date and a time side by side, 60% / 40% (widgetDefaults.dateTimeSplit), stacked on extra small screens. */
import type { ReactNode } from 'react';
import { DateInput, type DateInputProps } from './date-input/DateInput';
import { classNames } from './field';
import { TimeInput, type TimeInputProps } from './time-input/TimeInput';

export interface DateTimeFieldProps {
  /** Names the pair (e.g. 'Delivery'); each input keeps its own label. */
  legend?: ReactNode;
  date: DateInputProps;
  time: TimeInputProps;
  className?: string;
}

export function DateTimeField({ legend, date, time, className }: DateTimeFieldProps) {
  const pair = (
    <div className="kit-date-time">
      <DateInput {...date} className={classNames('kit-date-time__date', date.className)} />
      <TimeInput {...time} className={classNames('kit-date-time__time', time.className)} />
    </div>
  );
  if (!legend) return <div className={className}>{pair}</div>;
  return (
    <fieldset className={classNames('kit-fieldset', className)}>
      <legend className="kit-legend">{legend}</legend>
      {pair}
    </fieldset>
  );
}
