/**
 * The thin layer between react-hook-form and the widgets: each Form* component takes `control` and
 * `name` instead of value/onChange/onBlur/errorMessage/inputRef and passes the field's through, so a form
 * reads `<FormTextField control={control} name="firstname" label="First name" />`. Validation messages
 * come from the form's resolver (the shared zod schemas), so they are the spec's texts.
 */
import type { ComponentType } from 'react';
import {
  useController,
  type Control,
  type FieldPath,
  type FieldPathValue,
  type FieldValues,
  type RefCallBack,
} from 'react-hook-form';
import { Checkbox, RadioGroup, type CheckboxProps, type RadioGroupProps } from '../Checkbox';
import { DateInput, type DateInputProps } from '../date-input/DateInput';
import { NumberInput, type NumberInputProps } from '../NumberInput';
import { PasswordField, type PasswordFieldProps } from '../PasswordField';
import { SelectField, type SelectFieldProps } from '../Select';
import { RangeSlider, type RangeSliderProps } from '../slider/RangeSlider';
import { Suggestions, type SuggestionsProps } from '../Suggestions';
import {
  EmailField,
  PhoneField,
  TextAreaField,
  TextField,
  type TextAreaFieldProps,
  type TextFieldProps,
} from '../TextField';
import { TimeInput, type TimeInputProps } from '../time-input/TimeInput';

/** Props a binding supplies; the rest are the widget's own. */
type BoundKeys = 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'name' | 'inputRef' | 'errorMessage';

export interface FieldBinding<T extends FieldValues, N extends FieldPath<T>> {
  // Control's third parameter is the resolver's output type, which differs from T for zod schemas with
  // defaults or transforms; bindings never read it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  control: Control<T, any, any>;
  name: N;
}

export type FormFieldProps<T extends FieldValues, N extends FieldPath<T>, P> = Omit<P, BoundKeys> &
  FieldBinding<T, N>;

export interface BoundFieldProps<V> {
  name: string;
  value: V;
  onChange: (value: V) => void;
  onBlur: () => void;
  inputRef: RefCallBack;
  errorMessage: string | undefined;
  isDisabled?: boolean;
}

/**
 * What a widget needs from a react-hook-form field, for widgets without a Form* version (e.g. the three
 * lists of TimeSelect: `hour={useFieldProps(control, 'hour')}`).
 */
export function useFieldProps<T extends FieldValues, N extends FieldPath<T>>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  control: Control<T, any, any>,
  name: N,
): BoundFieldProps<FieldPathValue<T, N>> {
  const { field, fieldState } = useController({ control, name });
  return {
    name: field.name,
    value: field.value,
    onChange: field.onChange as (value: FieldPathValue<T, N>) => void,
    onBlur: field.onBlur,
    inputRef: field.ref,
    errorMessage: fieldState.error?.message,
    ...(field.disabled === undefined ? {} : { isDisabled: field.disabled }),
  };
}

/**
 * Makes the Form* version of a widget. The field's value is handed over as is: the form's default values
 * must already have the widget's value type ('' for text, dates and choices, false for a checkbox, null
 * or a number for a number input).
 */
function bind<P extends object>(Widget: ComponentType<P>, displayName: string) {
  function Bound<T extends FieldValues, N extends FieldPath<T>>({
    control,
    name,
    ...props
  }: FormFieldProps<T, N, P>) {
    const field = useFieldProps(control, name);
    return <Widget {...(props as unknown as P)} {...(field as unknown as Partial<P>)} />;
  }
  Bound.displayName = displayName;
  return Bound;
}

export const FormTextField = bind<TextFieldProps>(TextField, 'FormTextField');
export const FormEmailField = bind<TextFieldProps>(EmailField, 'FormEmailField');
export const FormPhoneField = bind<TextFieldProps>(PhoneField, 'FormPhoneField');
export const FormTextArea = bind<TextAreaFieldProps>(TextAreaField, 'FormTextArea');
export const FormSelect = bind<SelectFieldProps>(SelectField, 'FormSelect');
export const FormSuggestions = bind<SuggestionsProps>(Suggestions, 'FormSuggestions');
export const FormDateInput = bind<DateInputProps>(DateInput, 'FormDateInput');
export const FormTimeInput = bind<TimeInputProps>(TimeInput, 'FormTimeInput');
export const FormPasswordField = bind<PasswordFieldProps>(PasswordField, 'FormPasswordField');
export const FormNumberInput = bind<NumberInputProps>(NumberInput, 'FormNumberInput');
export const FormCheckbox = bind<CheckboxProps>(Checkbox, 'FormCheckbox');
export const FormRadioGroup = bind<RadioGroupProps>(RadioGroup, 'FormRadioGroup');
export const FormRangeSlider = bind<RangeSliderProps>(RangeSlider, 'FormRangeSlider');
