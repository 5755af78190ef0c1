/**
 * Date input (SPEC §5 'Form widget rules'): typed as M/D/YYYY, with a calendar in a 375 px dialog titled
 * 'ddd, MMM D'. The value is 'YYYY-MM-DD' ('' when empty). Typing rules live in ./parse.ts; the commit,
 * message and revert behaviour in ../useEntryField.ts; focus, keyboard and the dialog come from
 * react-aria (TextField, DialogTrigger, Modal, Dialog, Calendar).
 */
import { DATE_ERROR_CLEAR_MS, DATE_ONLY_FORMAT, INVALID_DATE_FORMAT } from '@avp/shared';
import { parseDate } from '@internationalized/date';
import dayjs from 'dayjs';
import { useCallback, useState, type KeyboardEvent } from 'react';
import {
  Button as AriaButton,
  Calendar,
  CalendarCell,
  CalendarGrid,
  Dialog,
  DialogTrigger,
  Heading,
  Input,
  Modal,
  ModalOverlay,
  TextField as AriaTextField,
} from 'react-aria-components';
import { Button } from '../Button';
import {
  classNames,
  FieldErrorText,
  FieldHelp,
  FieldLabel,
  type FieldBaseProps,
  type InputRefProps,
  type ValueProps,
} from '../field';
import { widgetDefaults } from '../theme';
import { useControllable } from '../useControllable';
import { useEntryField, type EntryResult } from '../useEntryField';
import {
  boundsFromRange,
  dateBoundsError,
  formatDateEntry,
  isDateValue,
  mergeBounds,
  parseDateEntry,
  selectableRange,
  type DateBounds,
} from './parse';

export interface DateInputProps extends FieldBaseProps, ValueProps<string>, InputRefProps {
  /** Exclusive lower bound as SPEC §5 words it: a date on or before it reads 'Date must be after {date}'. */
  after?: string | undefined;
  /** Exclusive upper bound: a date on or after it reads 'Date must be before {date}'. */
  before?: string | undefined;
  /** Inclusive first allowed day (shared's DateRange.min); turned into `after` = the day before. */
  minDate?: string | undefined;
  /** Inclusive last allowed day (shared's DateRange.max); turned into `before` = the day after. */
  maxDate?: string | undefined;
  /** How long a bad entry's message shows before the text reverts (default DATE_ERROR_CLEAR_MS). */
  errorClearMs?: number;
  placeholder?: string;
}

function todayValue(): string {
  return dayjs().format(DATE_ONLY_FORMAT);
}

function clampDay(day: string, { min, max }: { min?: string | undefined; max?: string | undefined }): string {
  if (min && day < min) return min;
  if (max && day > max) return max;
  return day;
}

export function DateInput({
  label,
  description,
  errorMessage,
  className,
  inputRef,
  value,
  defaultValue = '',
  onChange,
  onBlur,
  after,
  before,
  minDate,
  maxDate,
  errorClearMs = DATE_ERROR_CLEAR_MS,
  placeholder = 'M/D/YYYY',
  ...props
}: DateInputProps) {
  const [current, setCurrent] = useControllable(value, defaultValue, onChange);
  const bounds: DateBounds = mergeBounds({ after, before }, boundsFromRange(minDate, maxDate));
  const range = selectableRange(bounds);

  const read = useCallback(
    (text: string): EntryResult => {
      const entry = parseDateEntry(text, new Date());
      if (entry.kind === 'empty') return { value: '' };
      if (entry.kind === 'invalid') return { error: INVALID_DATE_FORMAT };
      const outside = dateBoundsError(entry.value, { after: bounds.after, before: bounds.before });
      return outside ? { error: outside } : { value: entry.value };
    },
    [bounds.after, bounds.before],
  );

  const { draft, error, onTextChange, commitText } = useEntryField({
    value: current,
    display: formatDateEntry,
    read,
    commit: setCurrent,
    errorClearMs,
  });

  const [isOpen, setOpen] = useState(false);
  const [pending, setPending] = useState('');

  const openChange = (open: boolean) => {
    if (open) setPending(isDateValue(current) ? current : clampDay(todayValue(), range));
    setOpen(open);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter') commitText();
    else if (event.key === 'ArrowDown' && event.altKey) {
      event.preventDefault();
      openChange(true);
    }
  };

  const shownError = error ?? errorMessage;
  const calendarValue = isDateValue(pending) ? parseDate(pending) : null;

  return (
    <AriaTextField
      {...props}
      className={classNames('kit-field', 'kit-date', className)}
      value={draft}
      onChange={onTextChange}
      onBlur={() => {
        commitText();
        onBlur?.();
      }}
      onKeyDown={onKeyDown}
      isInvalid={Boolean(shownError)}
      validationBehavior="aria"
    >
      <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
      <div className="kit-input-group">
        <Input className="kit-input" ref={inputRef} placeholder={placeholder} />
        <DialogTrigger isOpen={isOpen} onOpenChange={openChange}>
          <AriaButton
            className="kit-icon-button"
            aria-label="Choose date"
            isDisabled={props.isDisabled || props.isReadOnly}
          >
            <CalendarIcon />
          </AriaButton>
          <ModalOverlay className="kit-overlay" isDismissable>
            <Modal className="kit-modal kit-calendar-dialog">
              <Dialog className="kit-dialog">
                {({ close }) => (
                  <>
                    <Heading slot="title" className="kit-calendar-dialog__title">
                      {calendarValue ? dayjs(pending).format(widgetDefaults.date.dialogTitleFormat) : ''}
                    </Heading>
                    <Calendar
                      className="kit-calendar"
                      aria-label="Calendar"
                      autoFocus
                      value={calendarValue}
                      onChange={(day) => setPending(day.toString())}
                      minValue={range.min ? parseDate(range.min) : undefined}
                      maxValue={range.max ? parseDate(range.max) : undefined}
                    >
                      <header className="kit-calendar__header">
                        <AriaButton slot="previous" className="kit-icon-button">
                          <span aria-hidden="true">‹</span>
                        </AriaButton>
                        <Heading className="kit-calendar__month" />
                        <AriaButton slot="next" className="kit-icon-button">
                          <span aria-hidden="true">›</span>
                        </AriaButton>
                      </header>
                      <CalendarGrid className="kit-calendar__grid">
                        {(day) => <CalendarCell className="kit-calendar__cell" date={day} />}
                      </CalendarGrid>
                    </Calendar>
                    <div className="kit-dialog__actions">
                      <Button variant="text" dense onPress={close}>
                        Cancel
                      </Button>
                      <Button
                        dense
                        onPress={() => {
                          if (isDateValue(pending) && !dateBoundsError(pending, bounds)) setCurrent(pending);
                          close();
                        }}
                      >
                        OK
                      </Button>
                    </div>
                  </>
                )}
              </Dialog>
            </Modal>
          </ModalOverlay>
        </DialogTrigger>
      </div>
      <FieldHelp>{description}</FieldHelp>
      <FieldErrorText>{shownError}</FieldErrorText>
    </AriaTextField>
  );
}

function CalendarIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M7 2h2v2h6V2h2v2h3a1 1 0 0 1 1 1v15a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h3V2Zm12 8H5v9h14v-9ZM5 8h14V6H5v2Z"
      />
    </svg>
  );
}
