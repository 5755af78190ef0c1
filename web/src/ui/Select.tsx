/** A single-choice drop-down list (react-aria Select: a button with a listbox in a popover). */
import type { Key } from 'react-aria-components';
import { Button, ListBox, ListBoxItem, Select as AriaSelect, SelectValue } from 'react-aria-components';
import {
  classNames,
  FieldErrorText,
  FieldHelp,
  FieldLabel,
  type FieldBaseProps,
  type InputRefProps,
  type ValueProps,
} from './field';
import { ListPanel } from './ListPanel';
import { normalizeOptions, type ListOptions } from './options';
import { useControllable } from './useControllable';

export interface SelectFieldProps
  extends FieldBaseProps, ValueProps<string>, InputRefProps<HTMLButtonElement> {
  options: ListOptions;
  /** Shown while nothing is chosen. */
  placeholder?: string;
  /** ms before the open list becomes visible (widgetDefaults.listAppearDelayMs). */
  appearDelayMs?: number;
}

/** The value is the chosen option's id, '' while nothing is chosen (what a form field holds). */
export function SelectField({
  label,
  description,
  errorMessage,
  className,
  inputRef,
  options,
  value,
  defaultValue = '',
  onChange,
  onBlur,
  placeholder = 'Select…',
  appearDelayMs,
  ...props
}: SelectFieldProps) {
  const [selected, setSelected] = useControllable(value, defaultValue, onChange);
  const items = normalizeOptions(options);
  return (
    <AriaSelect
      {...props}
      className={classNames('kit-field', 'kit-select', className)}
      value={selected === '' ? null : selected}
      onChange={(key: Key | null) => setSelected(key == null ? '' : String(key))}
      onBlur={() => onBlur?.()}
      placeholder={placeholder}
      isInvalid={Boolean(errorMessage)}
      validationBehavior="aria"
    >
      <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
      <Button className="kit-input kit-select__trigger" ref={inputRef}>
        <SelectValue className="kit-select__value" />
        <span className="kit-select__chevron" aria-hidden="true">
          ▾
        </span>
      </Button>
      <FieldHelp>{description}</FieldHelp>
      <FieldErrorText>{errorMessage}</FieldErrorText>
      <ListPanel appearDelayMs={appearDelayMs}>
        <ListBox className="kit-listbox" items={items}>
          {(item) => (
            <ListBoxItem
              className="kit-option"
              id={item.id}
              textValue={item.label}
              isDisabled={item.isDisabled}
            >
              {item.label}
            </ListBoxItem>
          )}
        </ListBox>
      </ListPanel>
    </AriaSelect>
  );
}
