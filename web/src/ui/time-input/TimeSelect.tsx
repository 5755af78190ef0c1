/**
 * Hour, minutes and (when the form asks for it) AM/PM as three lists, for forms that keep them as
 * separate fields (the upload event form, SPEC §2: hours 1 to 12, minutes in steps of 5, AM/PM).
 */
import { UPLOAD_MINUTE_STEP } from '@avp/shared';
import { useId, type ReactNode } from 'react';
import { classNames } from '../field';
import { SelectField, type SelectFieldProps } from '../Select';
import { hourOptions, MERIDIEM_OPTIONS, minuteOptions, type Clock } from './parse';

/** What each of the three lists takes (value, onChange, onBlur, errorMessage, inputRef...). */
export type TimePartProps = Omit<SelectFieldProps, 'label' | 'options'>;

export interface TimeSelectProps {
  label: ReactNode;
  description?: ReactNode;
  clock?: Clock;
  minuteStep?: number;
  hour: TimePartProps;
  minute: TimePartProps;
  /** Given: an AM/PM list is shown (12-hour clock only). */
  meridiem?: TimePartProps | undefined;
  isRequired?: boolean;
  isDisabled?: boolean;
  className?: string;
}

export function TimeSelect({
  label,
  description,
  clock = '12h',
  minuteStep = UPLOAD_MINUTE_STEP,
  hour,
  minute,
  meridiem,
  isRequired,
  isDisabled,
  className,
}: TimeSelectProps) {
  const labelId = useId();
  const descriptionId = useId();
  const common = { isRequired, isDisabled, placeholder: '--' };
  return (
    <div
      role="group"
      aria-labelledby={labelId}
      aria-describedby={description ? descriptionId : undefined}
      className={classNames('kit-time-select', className)}
    >
      <span id={labelId} className="kit-label">
        {label}
      </span>
      <div className="kit-time-select__parts">
        <SelectField {...common} {...hour} label="Hour" options={hourOptions(clock)} />
        <SelectField {...common} {...minute} label="Minutes" options={minuteOptions(minuteStep)} />
        {meridiem && clock === '12h' ? (
          <SelectField {...common} {...meridiem} label="AM/PM" options={MERIDIEM_OPTIONS} />
        ) : null}
      </div>
      {description ? (
        <div id={descriptionId} className="kit-help">
          {description}
        </div>
      ) : null}
    </div>
  );
}
