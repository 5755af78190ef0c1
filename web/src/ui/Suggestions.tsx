/**
 * A text field with a list of suggestions (react-aria ComboBox). The value is the text itself: a
 * suggestion fills it in, and any other text is allowed too. Matching is case-insensitive on a substring;
 * an empty match shows '-- empty --'.
 */
import { SUGGESTIONS_EMPTY } from '@avp/shared';
import { Button, ComboBox, Input, ListBox, ListBoxItem } from 'react-aria-components';
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
import { matchesSuggestion, normalizeOptions, type ListOptions } from './options';
import { useControllable } from './useControllable';

export interface SuggestionsProps extends FieldBaseProps, ValueProps<string>, InputRefProps {
  suggestions: ListOptions;
  placeholder?: string;
  /** ms before the open list becomes visible (widgetDefaults.listAppearDelayMs). */
  appearDelayMs?: number;
}

export function Suggestions({
  label,
  description,
  errorMessage,
  className,
  inputRef,
  suggestions,
  value,
  defaultValue = '',
  onChange,
  onBlur,
  placeholder,
  appearDelayMs,
  ...props
}: SuggestionsProps) {
  const [text, setText] = useControllable(value, defaultValue, onChange);
  const items = normalizeOptions(suggestions);
  return (
    <ComboBox
      {...props}
      className={classNames('kit-field', 'kit-suggestions', className)}
      defaultItems={items}
      inputValue={text}
      onInputChange={setText}
      onBlur={() => onBlur?.()}
      allowsCustomValue
      allowsEmptyCollection
      defaultFilter={matchesSuggestion}
      isInvalid={Boolean(errorMessage)}
      validationBehavior="aria"
    >
      <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
      <div className="kit-input-group">
        <Input className="kit-input" ref={inputRef} placeholder={placeholder} />
        <Button className="kit-icon-button" aria-label="Show suggestions">
          <span aria-hidden="true">▾</span>
        </Button>
      </div>
      <FieldHelp>{description}</FieldHelp>
      <FieldErrorText>{errorMessage}</FieldErrorText>
      <ListPanel appearDelayMs={appearDelayMs}>
        <ListBox
          className="kit-listbox"
          renderEmptyState={() => <div className="kit-listbox__empty">{SUGGESTIONS_EMPTY}</div>}
        >
          {(item: (typeof items)[number]) => (
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
    </ComboBox>
  );
}
