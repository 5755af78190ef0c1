/** The parts every form widget shares: label, help text, error text and the props that drive them. */
import type { ReactNode, Ref } from 'react';
import { FieldError, Label, Text } from 'react-aria-components';

export interface FieldBaseProps {
  label: ReactNode;
  /** Help text under the field (announced with it). */
  description?: ReactNode;
  /** Error text; when set the field is shown and announced as invalid. */
  errorMessage?: string | undefined;
  isRequired?: boolean;
  isDisabled?: boolean;
  isReadOnly?: boolean;
  name?: string;
  className?: string;
}

/** What a value widget takes from a form (see form/bindings.tsx). */
export interface ValueProps<V> {
  value?: V;
  defaultValue?: V;
  onChange?: (value: V) => void;
  onBlur?: () => void;
}

export interface InputRefProps<E extends HTMLElement = HTMLInputElement> {
  /** The element a form focuses when this field is the first invalid one. */
  inputRef?: Ref<E>;
}

export function classNames(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}

export function FieldLabel({
  children,
  isRequired,
}: {
  children: ReactNode;
  isRequired?: boolean | undefined;
}) {
  return (
    <Label className="kit-label">
      {children}
      {isRequired ? (
        <span className="kit-label__required" aria-hidden="true">
          {' *'}
        </span>
      ) : null}
    </Label>
  );
}

export function FieldHelp({ children }: { children?: ReactNode }) {
  if (children == null || children === '') return null;
  return (
    <Text slot="description" className="kit-help">
      {children}
    </Text>
  );
}

/** Rendered by react-aria only while the field is invalid, and wired to it with aria-describedby. */
export function FieldErrorText({ children }: { children?: string | undefined }) {
  return <FieldError className="kit-error">{children}</FieldError>;
}
