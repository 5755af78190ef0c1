/** Checkbox with checked, unchecked and partial (indeterminate) states, and a one-choice radio group. */
import type { ReactNode } from 'react';
import { CheckboxButton, CheckboxField, Radio, RadioGroup as AriaRadioGroup } from 'react-aria-components';
import {
  classNames,
  FieldErrorText,
  FieldHelp,
  FieldLabel,
  type FieldBaseProps,
  type InputRefProps,
  type ValueProps,
} from './field';
import { normalizeOptions, type ListOptions } from './options';
import { useControllable } from './useControllable';

export interface CheckboxProps extends FieldBaseProps, ValueProps<boolean>, InputRefProps {
  /** The partial state, e.g. a 'select all' box when only some are selected. Shown instead of the tick. */
  isIndeterminate?: boolean;
}

export function Checkbox({
  label,
  description,
  errorMessage,
  className,
  inputRef,
  value,
  defaultValue = false,
  onChange,
  onBlur,
  isIndeterminate = false,
  ...props
}: CheckboxProps) {
  const [checked, setChecked] = useControllable(value, defaultValue, onChange);
  return (
    <CheckboxField
      {...props}
      className={classNames('kit-checkbox-field', className)}
      isSelected={checked}
      onChange={setChecked}
      onBlur={() => onBlur?.()}
      isIndeterminate={isIndeterminate}
      isInvalid={Boolean(errorMessage)}
      validationBehavior="aria"
      inputRef={inputRef}
    >
      <CheckboxButton className="kit-checkbox">
        {({ isSelected, isIndeterminate: partial }) => (
          <>
            <span className="kit-checkbox__box" aria-hidden="true">
              <svg viewBox="0 0 18 18" focusable="false">
                {partial ? (
                  <rect x="4" y="8" width="10" height="2" fill="currentColor" />
                ) : isSelected ? (
                  <polyline
                    points="3.5 9.5 7.5 13 14.5 5"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="2.5"
                  />
                ) : null}
              </svg>
            </span>
            <span className="kit-checkbox__label">
              {label}
              {props.isRequired ? (
                <span className="kit-label__required" aria-hidden="true">
                  {' *'}
                </span>
              ) : null}
            </span>
          </>
        )}
      </CheckboxButton>
      <FieldHelp>{description}</FieldHelp>
      <FieldErrorText>{errorMessage}</FieldErrorText>
    </CheckboxField>
  );
}

export interface RadioGroupProps extends FieldBaseProps, ValueProps<string>, InputRefProps {
  options: ListOptions;
  orientation?: 'horizontal' | 'vertical';
}

/** The value is the chosen option's id ('' while none is chosen). Arrow keys move the one selection. */
export function RadioGroup({
  label,
  description,
  errorMessage,
  className,
  inputRef,
  value,
  defaultValue = '',
  onChange,
  onBlur,
  options,
  orientation = 'vertical',
  ...props
}: RadioGroupProps) {
  const [selected, setSelected] = useControllable(value, defaultValue, onChange);
  const items = normalizeOptions(options);
  return (
    <AriaRadioGroup
      {...props}
      className={classNames('kit-field', 'kit-radio-group', className)}
      value={selected === '' ? null : selected}
      onChange={setSelected}
      onBlur={() => onBlur?.()}
      orientation={orientation}
      isInvalid={Boolean(errorMessage)}
      validationBehavior="aria"
    >
      <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
      <div className="kit-radio-group__options" data-orientation={orientation}>
        {items.map((item, index) => (
          <Radio
            key={item.id}
            value={item.id}
            isDisabled={item.isDisabled}
            className="kit-radio"
            // The form focuses the first option (react-aria moves focus to the chosen one within the group).
            inputRef={index === 0 ? inputRef : undefined}
          >
            <span className="kit-radio__dot" aria-hidden="true" />
            <RadioText>{item.label}</RadioText>
          </Radio>
        ))}
      </div>
      <FieldHelp>{description}</FieldHelp>
      <FieldErrorText>{errorMessage}</FieldErrorText>
    </AriaRadioGroup>
  );
}

function RadioText({ children }: { children: ReactNode }) {
  return <span className="kit-radio__label">{children}</span>;
}
