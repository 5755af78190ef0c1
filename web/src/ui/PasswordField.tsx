/**
 * Password field with hints (SPEC §5): 1200 ms after the last keystroke it lists what the password still
 * lacks, in the spec's words and order (shared's passwordHints). A toggle shows the text.
 */
import { PASSWORD_HINT_DELAY_MS, passwordHints } from '@avp/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { Input, TextField as AriaTextField, ToggleButton } from 'react-aria-components';
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

export interface PasswordFieldProps extends FieldBaseProps, ValueProps<string>, InputRefProps {
  /** 'new-password' (default) shows hints; 'current-password' (a login form) does not. */
  autoComplete?: 'new-password' | 'current-password';
  /** What the password still lacks (default: shared's passwordHints). */
  hints?: (password: string) => string[];
  /** Quiet time after typing before the hints update (default PASSWORD_HINT_DELAY_MS, 1200 ms). */
  hintDelayMs?: number;
}

export function PasswordField({
  label,
  description,
  errorMessage,
  className,
  inputRef,
  value,
  defaultValue = '',
  onChange,
  onBlur,
  autoComplete = 'new-password',
  hints = passwordHints,
  hintDelayMs = PASSWORD_HINT_DELAY_MS,
  ...props
}: PasswordFieldProps) {
  const [text, setText] = useControllable(value, defaultValue, onChange);
  const [shownHints, setShownHints] = useState<string[]>([]);
  const [visible, setVisible] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const hintsId = useId();
  const withHints = autoComplete === 'new-password';

  useEffect(() => () => clearTimeout(timer.current), []);

  const onTextChange = (next: string) => {
    setText(next);
    if (!withHints) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setShownHints(hints(next)), hintDelayMs);
  };

  return (
    <AriaTextField
      {...props}
      className={classNames('kit-field', 'kit-password', className)}
      type={visible ? 'text' : 'password'}
      autoComplete={autoComplete}
      value={text}
      onChange={onTextChange}
      onBlur={() => onBlur?.()}
      isInvalid={Boolean(errorMessage)}
      validationBehavior="aria"
      aria-describedby={withHints ? hintsId : undefined}
    >
      <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
      <div className="kit-input-group">
        <Input className="kit-input" ref={inputRef} />
        <ToggleButton
          className="kit-icon-button kit-password__toggle"
          aria-label="Show password"
          isSelected={visible}
          onChange={setVisible}
          isDisabled={props.isDisabled}
        >
          <span aria-hidden="true">{visible ? 'Hide' : 'Show'}</span>
        </ToggleButton>
      </div>
      <FieldHelp>{description}</FieldHelp>
      {withHints ? (
        <ul id={hintsId} className="kit-hints" aria-live="polite">
          {shownHints.map((hint) => (
            <li key={hint}>{hint}</li>
          ))}
        </ul>
      ) : null}
      <FieldErrorText>{errorMessage}</FieldErrorText>
    </AriaTextField>
  );
}
