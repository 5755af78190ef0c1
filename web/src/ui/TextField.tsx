/**
 * Text, e-mail and phone fields and the text area with a character counter, on react-aria's TextField:
 * label, help text and error text are wired to the input (aria-labelledby / aria-describedby /
 * aria-invalid) by the library.
 */
import { useId } from 'react';
import type { HTMLAttributes, KeyboardEvent } from 'react';
import { Input, TextArea as AriaTextArea, TextField as AriaTextField } from 'react-aria-components';
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

type InputType = 'text' | 'email' | 'tel' | 'url' | 'search' | 'password';

export interface TextFieldProps extends FieldBaseProps, ValueProps<string>, InputRefProps {
  type?: InputType;
  autoComplete?: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  placeholder?: string;
  /** Native hard limit; the text area's `limit` counts instead of blocking. */
  maxLength?: number;
  /** Extra ids for aria-describedby (e.g. a counter or password hints). */
  'aria-describedby'?: string;
  onKeyDown?: (event: KeyboardEvent) => void;
}

export function TextField({
  label,
  description,
  errorMessage,
  className,
  inputRef,
  value,
  defaultValue = '',
  onChange,
  onBlur,
  placeholder,
  ...props
}: TextFieldProps) {
  const [text, setText] = useControllable(value, defaultValue, onChange);
  return (
    <AriaTextField
      {...props}
      className={classNames('kit-field', className)}
      value={text}
      onChange={setText}
      onBlur={() => onBlur?.()}
      isInvalid={Boolean(errorMessage)}
      validationBehavior="aria"
    >
      <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
      <Input className="kit-input" ref={inputRef} placeholder={placeholder} />
      <FieldHelp>{description}</FieldHelp>
      <FieldErrorText>{errorMessage}</FieldErrorText>
    </AriaTextField>
  );
}

export type EmailFieldProps = Omit<TextFieldProps, 'type'>;

export function EmailField(props: EmailFieldProps) {
  return <TextField type="email" autoComplete="email" inputMode="email" {...props} />;
}

export type PhoneFieldProps = Omit<TextFieldProps, 'type'>;

export function PhoneField(props: PhoneFieldProps) {
  return <TextField type="tel" autoComplete="tel" inputMode="tel" {...props} />;
}

export interface TextAreaFieldProps
  extends FieldBaseProps, ValueProps<string>, InputRefProps<HTMLTextAreaElement> {
  /** Shows 'n/limit' under the field, in the error colour beyond the limit (the contact message: 300). */
  limit?: number;
  rows?: number;
  placeholder?: string;
}

export function TextAreaField({
  label,
  description,
  errorMessage,
  className,
  inputRef,
  value,
  defaultValue = '',
  onChange,
  onBlur,
  limit,
  rows = 5,
  placeholder,
  ...props
}: TextAreaFieldProps) {
  const [text, setText] = useControllable(value, defaultValue, onChange);
  const counterId = useId();
  // Counted like zod's .max() counts, so the counter and the schema agree on where the limit falls.
  const count = text.length;
  const over = limit !== undefined && count > limit;
  return (
    <AriaTextField
      {...props}
      className={classNames('kit-field', className)}
      value={text}
      onChange={setText}
      onBlur={() => onBlur?.()}
      isInvalid={Boolean(errorMessage)}
      validationBehavior="aria"
      aria-describedby={limit !== undefined ? counterId : undefined}
    >
      <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
      <AriaTextArea className="kit-input kit-textarea" ref={inputRef} rows={rows} placeholder={placeholder} />
      {limit !== undefined ? (
        <div id={counterId} className="kit-counter" data-over={over || undefined}>
          <span className="visually-hidden">Characters used: </span>
          {count}/{limit}
        </div>
      ) : null}
      <FieldHelp>{description}</FieldHelp>
      <FieldErrorText>{errorMessage}</FieldErrorText>
    </AriaTextField>
  );
}
