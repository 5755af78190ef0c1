import {
  checkoutFormSchema,
  CHECKOUT_INCOMPLETE,
  defaultSchedule,
  deliveryDateRange,
  GO_TO_PAYMENT,
  isDateOnly,
  ONSITE_SAME_AS_PURCHASER,
  pickupDateRange,
  type CheckoutForm,
  type OrderCustomerInfoInput,
} from '@avp/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import {
  Button,
  Checkbox,
  DateTimeField,
  FormEmailField,
  FormPhoneField,
  FormTextField,
  useFieldProps,
} from '../../../ui';
import type { StoreData } from '../api';
import '../store.css';
import { CartSummary } from '../components/CartSummary';
import { StoreFrame } from '../components/StoreFrame';
import { useOrderIntent } from '../intent';
import { currencyOf, currentCart, previewAmounts, summaryLines } from '../pricing';
import { useCart, useCustomerDraft, useStoredIntent, type CustomerDraft } from '../state';
import { StockNotice, useShortages } from '../components/StockNotice';

/** SPEC §2: the note under the date pickers. */
export const TIMES_NOTE = 'Exact delivery and pickup times are set after all exhibit orders are processed.';

type Values = OrderCustomerInfoInput;
const FIELDS: (keyof Values & string)[] = [
  'company',
  'firstName',
  'lastName',
  'email',
  'phone',
  'address',
  'city',
  'state',
  'zip',
  'onsiteFirstName',
  'onsiteLastName',
  'onsiteEmail',
  'onsitePhone',
  'booth',
  'room',
  'deliveryDate',
  'deliveryTime',
  'pickupDate',
  'pickupTime',
];
const COPIED: [from: keyof Values, to: keyof Values][] = [
  ['firstName', 'onsiteFirstName'],
  ['lastName', 'onsiteLastName'],
  ['email', 'onsiteEmail'],
  ['phone', 'onsitePhone'],
];

/** The form's starting values: what this browser saved for the store, else blanks and SPEC §9's schedule. */
export function initialValues(store: StoreData, draft: CustomerDraft | undefined): Values {
  const schedule = defaultSchedule(store);
  const values = Object.fromEntries(FIELDS.map((field) => [field, ''])) as Record<keyof Values, string>;
  Object.assign(values, schedule);
  for (const field of FIELDS) {
    const saved = draft?.[field];
    if (typeof saved === 'string' && (saved !== '' || !(field in schedule))) values[field] = saved;
  }
  return values;
}

/** /exhibitor_order/{storeId}/checkout (SPEC §2): the rental information form with the cart summary. */
export default function CheckoutPage() {
  const { storeId = '' } = useParams();
  return (
    <StoreFrame key={storeId} storeId={storeId}>
      {(store) => <Checkout store={store} />}
    </StoreFrame>
  );
}

function Checkout({ store }: { store: StoreData }) {
  const { cart: stored } = useCart(store.store_id);
  const cart = currentCart(store, stored);
  const { intent, error, retry } = useOrderIntent(store, cart);
  const { intent: kept } = useStoredIntent(store.store_id);
  const shortages = useShortages(cart, intent ?? kept, error, retry);
  return (
    <>
      <p className="store-back">
        <Link to={`/exhibitor_order/${encodeURIComponent(store.store_id)}`}>Back to the products</Link>
      </p>
      <StockNotice store={store} shortages={shortages} />
      <CartSummary
        lines={summaryLines(cart)}
        amounts={previewAmounts(store, cart)}
        currency={currencyOf(store)}
      />
      <RentalForm store={store} cartEmpty={cart.length === 0} />
    </>
  );
}

function RentalForm({ store, cartEmpty }: { store: StoreData; cartEmpty: boolean }) {
  const navigate = useNavigate();
  const { draft, setDraft } = useCustomerDraft(store.store_id);
  const schema = useMemo(() => checkoutFormSchema(store), [store]);
  const [defaults] = useState(() => initialValues(store, draft));
  const [onsiteSame, setOnsiteSame] = useState(Boolean(draft?.onsiteSame));
  const { control, formState, setValue, trigger, handleSubmit } = useForm<Values, unknown, CheckoutForm>({
    resolver: zodResolver(schema),
    defaultValues: defaults,
    mode: 'onTouched',
  });
  const values = useWatch({ control }) as Partial<Values>;

  // The rental information persists in localStorage with the cart (SPEC §4).
  useEffect(() => {
    setDraft({ ...values, onsiteSame });
  }, [values, onsiteSame, setDraft]);

  // While the box is ticked the onsite contact follows the purchaser's name, e-mail and phone.
  useEffect(() => {
    if (!onsiteSame) return;
    for (const [from, to] of COPIED) {
      if (values[to] !== values[from]) setValue(to, values[from] ?? '', { shouldValidate: true });
    }
  }, [onsiteSame, values, setValue]);

  // Each date bounds the other: a change to one re-checks the other once it has been touched.
  const { deliveryDate, pickupDate } = values;
  useEffect(() => {
    const touched = (['deliveryDate', 'pickupDate'] as const).filter((f) => formState.touchedFields[f]);
    if (touched.length > 0) void trigger(touched);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [deliveryDate, pickupDate, trigger]);

  const eventDates = { eventStart: store.start_date, eventEnd: store.end_date };
  const deliveryRange = deliveryDateRange({
    ...eventDates,
    pickupDate: isDateOnly(pickupDate ?? '') ? pickupDate : '',
  });
  const pickupRange = pickupDateRange({
    ...eventDates,
    deliveryDate: isDateOnly(deliveryDate ?? '') ? deliveryDate : '',
  });
  const ready = formState.isValid && !cartEmpty;

  return (
    <form
      className="store-panel store-form"
      aria-label="Rental information"
      noValidate
      onSubmit={handleSubmit(() => {
        void navigate('/payment');
      })}
    >
      <h2 className="store-panel__title">Rental information</h2>
      <fieldset className="kit-fieldset">
        <legend className="kit-legend">Client Information</legend>
        <div className="kit-form-row">
          <FormTextField
            control={control}
            name="company"
            label="Company name"
            isRequired
            autoComplete="organization"
          />
          <FormTextField
            control={control}
            name="firstName"
            label="First name"
            isRequired
            autoComplete="given-name"
          />
          <FormTextField
            control={control}
            name="lastName"
            label="Last name"
            isRequired
            autoComplete="family-name"
          />
          <FormEmailField control={control} name="email" label="E-mail" isRequired />
        </div>
      </fieldset>
      <fieldset className="kit-fieldset">
        <legend className="kit-legend">Address</legend>
        <div className="kit-form-row">
          <FormTextField
            control={control}
            name="address"
            label="Street address"
            isRequired
            autoComplete="street-address"
          />
          <FormTextField
            control={control}
            name="city"
            label="City"
            isRequired
            autoComplete="address-level2"
          />
          <FormTextField
            control={control}
            name="state"
            label="State"
            isRequired
            autoComplete="address-level1"
          />
          <FormTextField control={control} name="zip" label="Zip" isRequired autoComplete="postal-code" />
          <FormPhoneField
            control={control}
            name="phone"
            label="Phone"
            isRequired
            description="e.g. (312) 555-0142"
          />
        </div>
      </fieldset>
      <fieldset className="kit-fieldset">
        <legend className="kit-legend">Onsite Contact</legend>
        <Checkbox label={ONSITE_SAME_AS_PURCHASER} value={onsiteSame} onChange={setOnsiteSame} />
        <div className="kit-form-row">
          <FormTextField
            control={control}
            name="onsiteFirstName"
            label="First name"
            isRequired
            isReadOnly={onsiteSame}
          />
          <FormTextField
            control={control}
            name="onsiteLastName"
            label="Last name"
            isRequired
            isReadOnly={onsiteSame}
          />
          <FormEmailField
            control={control}
            name="onsiteEmail"
            label="E-mail"
            isRequired
            isReadOnly={onsiteSame}
            autoComplete="off"
          />
          <FormPhoneField
            control={control}
            name="onsitePhone"
            label="Phone"
            isRequired
            isReadOnly={onsiteSame}
            autoComplete="off"
          />
        </div>
      </fieldset>
      <fieldset className="kit-fieldset">
        <legend className="kit-legend">Booth Location</legend>
        <div className="kit-form-row">
          <FormTextField control={control} name="booth" label="Booth" isRequired />
          <FormTextField control={control} name="room" label="Room" description="Optional" />
        </div>
      </fieldset>
      <Schedule
        control={control}
        legend="Delivery"
        date="deliveryDate"
        time="deliveryTime"
        min={deliveryRange.min}
        max={deliveryRange.max}
      />
      <Schedule
        control={control}
        legend="Pickup"
        date="pickupDate"
        time="pickupTime"
        min={pickupRange.min}
        max={pickupRange.max}
      />
      <p className="store-note">{TIMES_NOTE}</p>
      <div className="store-form__actions">
        <Button type="submit" isDisabled={!ready}>
          {GO_TO_PAYMENT}
        </Button>
        {ready ? null : (
          <p className="store-form__hint" role="status">
            {CHECKOUT_INCOMPLETE}
          </p>
        )}
      </div>
    </form>
  );
}

function Schedule({
  control,
  legend,
  date,
  time,
  min,
  max,
}: {
  control: Control<Values>;
  legend: string;
  date: 'deliveryDate' | 'pickupDate';
  time: 'deliveryTime' | 'pickupTime';
  min: string;
  max: string;
}) {
  const dateField = useFieldProps(control, date);
  const timeField = useFieldProps(control, time);
  return (
    <DateTimeField
      legend={legend}
      date={{ ...dateField, label: `${legend} date`, isRequired: true, minDate: min, maxDate: max }}
      time={{ ...timeField, label: `${legend} time`, isRequired: true }}
    />
  );
}
