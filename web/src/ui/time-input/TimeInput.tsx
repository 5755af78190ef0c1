/**
 * Time input (SPEC §5 'Form widget rules'): typed on a 12-hour clock with AM/PM (the default, shown
 * 'hh:mm a'), a 12-hour clock without AM/PM ('hh:mm') or a 24-hour clock ('HH:mm'). A bad entry shows
 * 'Invalid Time Format (h:mm A)', '(hh:mm)' or '(HH:mm)' and reverts like the date input does.
 * The value is stored as 'h:mm A', 'hh:mm' or 'HH:mm' ('' when empty); see ./parse.ts.
 */
import { DATE_ERROR_CLEAR_MS } from '@avp/shared';
import { useCallback, type KeyboardEvent } from 'react';
import { Input, TextField as AriaTextField } from 'react-aria-components';
import {
  classNames,
  FieldErrorText,
  FieldHelp,
  FieldLabel,
  type FieldBaseProps,
  type InputRefProps,
  type ValueProps,
} from '../field';
import { useControllable } from '../useControllable';
import { useEntryField, type EntryResult } from '../useEntryField';
import {
  displayTimeValue,
  formatTimeValue,
  parseTimeEntry,
  timeFormatError,
  type Clock,
  type TimeMode,
} from './parse';

export interface TimeInputProps extends FieldBaseProps, ValueProps<string>, InputRefProps {
  /** '12h' (default) or '24h'. */
  clock?: Clock;
  /** 12-hour clock only: whether AM/PM is typed here (default) or asked for separately by the form. */
  meridiem?: boolean;
  /** How long a bad entry's message shows before the text reverts (default 2500 ms, as for dates). */
  errorClearMs?: number;
  placeholder?: string;
}

export function TimeInput({
  label,
  description,
  errorMessage,
  className,
  inputRef,
  value,
  defaultValue = '',
  onChange,
  onBlur,
  clock = '12h',
  meridiem = true,
  errorClearMs = DATE_ERROR_CLEAR_MS,
  placeholder,
  ...props
}: TimeInputProps) {
  const [current, setCurrent] = useControllable(value, defaultValue, onChange);
  const twelveWithMeridiem = clock === '12h' && meridiem;

  const display = useCallback(
    (stored: string) => displayTimeValue(stored, { clock, meridiem: twelveWithMeridiem }),
    [clock, twelveWithMeridiem],
  );
  const read = useCallback(
    (text: string): EntryResult => {
      const mode: TimeMode = { clock, meridiem: twelveWithMeridiem };
      const entry = parseTimeEntry(text, mode);
      if (entry.kind === 'empty') return { value: '' };
      if (entry.kind === 'invalid') return { error: timeFormatError(mode) };
      return { value: formatTimeValue(entry, mode) };
    },
    [clock, twelveWithMeridiem],
  );

  const { draft, error, onTextChange, commitText } = useEntryField({
    value: current,
    display,
    read,
    commit: setCurrent,
    errorClearMs,
  });

  const shownError = error ?? errorMessage;
  const hint = clock === '24h' ? 'HH:mm' : twelveWithMeridiem ? 'hh:mm am' : 'hh:mm';

  return (
    <AriaTextField
      {...props}
      className={classNames('kit-field', 'kit-time', className)}
      value={draft}
      onChange={onTextChange}
      onBlur={() => {
        commitText();
        onBlur?.();
      }}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key === 'Enter') commitText();
      }}
      isInvalid={Boolean(shownError)}
      validationBehavior="aria"
    >
      <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
      <Input className="kit-input" ref={inputRef} placeholder={placeholder ?? hint} />
      <FieldHelp>{description}</FieldHelp>
      <FieldErrorText>{shownError}</FieldErrorText>
    </AriaTextField>
  );
}
