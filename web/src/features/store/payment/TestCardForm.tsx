import { useImperativeHandle, useState, type Ref } from 'react';
import { TextField } from '../../../ui';
import { ApiError } from '../../../lib/api';
import { storeApi } from '../api';
import {
  cardError,
  cardFieldError,
  formatCardNumber,
  formatExpiry,
  isAmex,
  type CardField,
  type CardFields,
} from './testCard';
import { CardInputError, PaymentFailure, type PaymentMethodHandle } from './types';

const EMPTY: CardFields = { number: '', expiry: '', cvc: '' };

/**
 * The built-in test gateway's own card form (DESIGN 'Operating contract'). It says it is in test mode and
 * which cards to use. The typed number goes to this server only, which keeps its brand and last four.
 */
export function TestCardForm({
  handle,
  onInputError,
}: {
  handle: Ref<PaymentMethodHandle>;
  onInputError: (message: string | null) => void;
}) {
  const [fields, setFields] = useState<CardFields>(EMPTY);
  const [blurred, setBlurred] = useState<Record<CardField, boolean>>({
    number: false,
    expiry: false,
    cvc: false,
  });

  const report = (next: CardFields, nextBlurred: Record<CardField, boolean>) => {
    const everyEmpty = Object.values(next).every((v) => v.trim() === '');
    if (everyEmpty) {
      onInputError(null);
      return;
    }
    for (const field of ['number', 'expiry', 'cvc'] as const) {
      const message = cardFieldError(field, next, nextBlurred[field] && next[field].trim() !== '');
      if (message) {
        onInputError(message);
        return;
      }
    }
    onInputError(null);
  };

  const change = (field: CardField, value: string) => {
    const formatted =
      field === 'number'
        ? formatCardNumber(value)
        : field === 'expiry'
          ? formatExpiry(value)
          : value.replace(/\D/g, '').slice(0, 4);
    const next = { ...fields, [field]: formatted };
    setFields(next);
    report(next, blurred);
  };
  const blur = (field: CardField) => {
    const next = { ...blurred, [field]: true };
    setBlurred(next);
    report(fields, next);
  };

  useImperativeHandle(
    handle,
    () => ({
      async validate() {
        return cardError(fields, true);
      },
      async pay(intent) {
        try {
          return await storeApi.payWithTestCard(intent, fields);
        } catch (error) {
          if (error instanceof ApiError && error.status === 402) throw new PaymentFailure(error.message);
          if (
            error instanceof ApiError &&
            error.status === 400 &&
            Object.keys(error.fields).some((f) => f.startsWith('card.'))
          ) {
            throw new CardInputError(error.message);
          }
          throw error;
        }
      },
    }),
    [fields],
  );

  return (
    <div className="test-card">
      <p className="test-card__mode" role="note">
        <strong>Test mode.</strong> No card is charged. Pay with 4242 4242 4242 4242, any future expiry date
        and any CVC; 4000 0000 0000 0002 is declined and 4000 0000 0000 9995 has insufficient funds.
      </p>
      <div className="test-card__fields">
        <TextField
          label="Card number"
          className="test-card__number"
          value={fields.number}
          onChange={(v) => change('number', v)}
          onBlur={() => blur('number')}
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
        />
        <TextField
          label="Expiration (MM / YY)"
          value={fields.expiry}
          onChange={(v) => change('expiry', v)}
          onBlur={() => blur('expiry')}
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM / YY"
        />
        <TextField
          label="CVC"
          value={fields.cvc}
          onChange={(v) => change('cvc', v)}
          onBlur={() => blur('cvc')}
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder={isAmex(fields.number) ? '1234' : '123'}
        />
      </div>
    </div>
  );
}
