/**
 * The widget kit: every form of the product is built from these. Importing it brings in the
 * kit's stylesheet once for the whole site.
 */
import './kit.css';

export { theme, media, widgetDefaults, themeCssVariables } from './theme';
export type { FieldBaseProps, ValueProps, InputRefProps } from './field';
export { Button, type ButtonProps, type ButtonVariant } from './Button';
export {
  TextField,
  EmailField,
  PhoneField,
  TextAreaField,
  type TextFieldProps,
  type EmailFieldProps,
  type PhoneFieldProps,
  type TextAreaFieldProps,
} from './TextField';
export { SelectField, type SelectFieldProps } from './Select';
export { Suggestions, type SuggestionsProps } from './Suggestions';
export { matchesSuggestion, type ListOption, type ListOptions } from './options';
export { useAppearAfter } from './ListPanel';
export { DateInput, type DateInputProps } from './date-input/DateInput';
export {
  parseDateEntry,
  formatDateEntry,
  dateBoundsError,
  boundsFromRange,
  isDateValue,
  type DateBounds,
  type DateEntry,
} from './date-input/parse';
export { TimeInput, type TimeInputProps } from './time-input/TimeInput';
export { TimeSelect, type TimeSelectProps, type TimePartProps } from './time-input/TimeSelect';
export {
  parseTimeEntry,
  formatTimeValue,
  formatTimeDisplay,
  timeFormatError,
  hourOptions,
  minuteOptions,
  MERIDIEM_OPTIONS,
  type Clock,
  type TimeMode,
  type TimeOfDay,
} from './time-input/parse';
export { DateTimeField, type DateTimeFieldProps } from './DateTimeField';
export { PasswordField, type PasswordFieldProps } from './PasswordField';
export { NumberInput, type NumberInputProps } from './NumberInput';
export { RangeSlider, type RangeSliderProps } from './slider/RangeSlider';
export { keepGap, isUnlimited, type SliderValue } from './slider/range';
export { Checkbox, RadioGroup, type CheckboxProps, type RadioGroupProps } from './Checkbox';
export { FillChart, isOutsideRange, type FillChartProps } from './FillChart';
export { MessageDialog, ConfirmDialog, type MessageDialogProps, type ConfirmDialogProps } from './Dialogs';
export {
  createKeyedStore,
  useKeyedStore,
  infinityReplacer,
  infinityReviver,
  type KeyedStore,
  type KeyedEntry,
  type KeyedStoreOptions,
} from './store/keyedStore';
export {
  useFieldProps,
  FormTextField,
  FormEmailField,
  FormPhoneField,
  FormTextArea,
  FormSelect,
  FormSuggestions,
  FormDateInput,
  FormTimeInput,
  FormPasswordField,
  FormNumberInput,
  FormCheckbox,
  FormRadioGroup,
  FormRangeSlider,
  type FieldBinding,
  type FormFieldProps,
} from './form/bindings';
