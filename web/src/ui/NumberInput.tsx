/**
 * Number input (SPEC §5): on commit the value is clamped to [min, max] and rounded to `precision`
 * decimals; with precision 0 a '.' cannot be typed at all. All three are react-aria NumberField's own
 * behaviour (its parser refuses a decimal separator when maximumFractionDigits is 0); this widget only
 * maps precision onto its format options. Arrow keys step by `step`.
 */
import { useMemo } from 'react';
import { Button as AriaButton, Group, Input, NumberField } from 'react-aria-components';
import {
  classNames,
  FieldErrorText,
  FieldHelp,
  FieldLabel,
  type FieldBaseProps,
  type InputRefProps,
  type ValueProps,
} from './field';
import { useControllable } from './useControllable';

export interface NumberInputProps extends FieldBaseProps, ValueProps<number | null>, InputRefProps {
  min?: number;
  max?: number;
  /** Decimals kept (default 0: whole numbers, '.' blocked). */
  precision?: number;
  /** Arrow-key and button step (default 1). */
  step?: number;
  /** Show − / + buttons. */
  showSteppers?: boolean;
  placeholder?: string;
  /** Each keystroke's text, before the value is committed (on blur or Enter). */
  onInputChange?: (text: string) => void;
  /**
   * The accessible name of the field's group (input and − / +), e.g. 'Quantity of Monitor': where several
   * such fields share one visible label, each group says what it counts.
   */
  groupLabel?: string;
}

export function NumberInput({
  label,
  description,
  errorMessage,
  className,
  inputRef,
  value,
  defaultValue = null,
  onChange,
  onBlur,
  min,
  max,
  precision = 0,
  step,
  showSteppers = false,
  placeholder,
  onInputChange,
  groupLabel,
  ...props
}: NumberInputProps) {
  const [number, setNumber] = useControllable(value, defaultValue, onChange);
  const formatOptions = useMemo<Intl.NumberFormatOptions>(
    () => ({ maximumFractionDigits: precision, useGrouping: false }),
    [precision],
  );
  return (
    <NumberField
      {...props}
      className={classNames('kit-field', 'kit-number', className)}
      value={number ?? NaN}
      onChange={(next) => setNumber(Number.isNaN(next) ? null : next)}
      onBlur={() => onBlur?.()}
      minValue={min}
      maxValue={max}
      step={step}
      formatOptions={formatOptions}
      isInvalid={Boolean(errorMessage)}
      validationBehavior="aria"
    >
      <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
      <Group className="kit-input-group" aria-label={groupLabel}>
        {showSteppers ? (
          <AriaButton slot="decrement" className="kit-icon-button">
            <span aria-hidden="true">−</span>
          </AriaButton>
        ) : null}
        <Input
          className="kit-input"
          ref={inputRef}
          placeholder={placeholder}
          onChange={onInputChange ? (event) => onInputChange(event.currentTarget.value) : undefined}
        />
        {showSteppers ? (
          <AriaButton slot="increment" className="kit-icon-button">
            <span aria-hidden="true">+</span>
          </AriaButton>
        ) : null}
      </Group>
      <FieldHelp>{description}</FieldHelp>
      <FieldErrorText>{errorMessage}</FieldErrorText>
    </NumberField>
  );
}
