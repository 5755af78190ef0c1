/**
 * /staff/payment-test: SPEC §2's payment test page, which posts a card form to /api/charge.php and shows
 * what the configured gateway answered. Staff only (the shell signs staff in and turns clients away).
 */
import { formatCardNumber, formatExpiry, formatPrice } from '@avp/shared';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { Button, TextField } from '../../ui';
import { chargeTestCard, type PaymentTestResult } from './api';
import './admin.css';

const BRANDS: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express' };

/** '2.50' or '2' → 250 cents; anything else → NaN. */
function cents(text: string): number {
  return /^\d+(\.\d{1,2})?$/.test(text.trim()) ? Math.round(Number(text.trim()) * 100) : NaN;
}

export const AMOUNT_INVALID = 'Enter an amount from 0.50 to 1,000.00.';

export default function PaymentTestPage() {
  useDocumentTitle('Payment test');
  const [form, setForm] = useState({ amount: '1.00', number: '', expiry: '', cvc: '' });
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<PaymentTestResult | null>(null);
  const [failure, setFailure] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const set = (name: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [name]: value }));
  const amount = cents(form.amount);
  const amountError = Number.isNaN(amount) || amount < 50 || amount > 100_000 ? AMOUNT_INVALID : undefined;

  async function charge() {
    if (amountError) return;
    setPending(true);
    setResult(null);
    setFailure(null);
    try {
      setResult(
        await chargeTestCard({ card: { number: form.number, expiry: form.expiry, cvc: form.cvc }, amount }),
      );
    } catch (error) {
      setFailure({
        message: errorMessage(error),
        fields: error instanceof ApiError ? error.fields : {},
      });
    } finally {
      setPending(false);
    }
  }

  const fieldError = (name: string) => failure?.fields[`card.${name}`];
  return (
    <section aria-labelledby="payment-test-title">
      <h1 id="payment-test-title">Payment test</h1>
      <p className="staff-muted">
        Charges a card through the configured payment gateway. In test mode, 4242 4242 4242 4242 succeeds and
        4000 0000 0000 0002 is declined; any future expiry, any CVC.
      </p>
      <form
        aria-label="Payment test"
        className="staff-form staff-panel"
        onSubmit={(event) => {
          event.preventDefault();
          void charge();
        }}
      >
        <TextField
          label="Amount (USD)"
          value={form.amount}
          onChange={set('amount')}
          inputMode="decimal"
          errorMessage={form.amount === '' ? undefined : amountError}
          isRequired
        />
        <TextField
          label="Card number"
          value={form.number}
          onChange={(value) => set('number')(formatCardNumber(value))}
          inputMode="numeric"
          autoComplete="off"
          errorMessage={fieldError('number')}
          isRequired
        />
        <TextField
          label="Expiry (MM / YY)"
          value={form.expiry}
          // Formatted as the store's card field formats it: '1229' becomes '12 / 29'.
          onChange={(value) => set('expiry')(formatExpiry(value))}
          inputMode="numeric"
          autoComplete="off"
          errorMessage={fieldError('expiry')}
          isRequired
        />
        <TextField
          label="CVC"
          value={form.cvc}
          onChange={(value) => set('cvc')(value.replace(/\D/g, '').slice(0, 4))}
          inputMode="numeric"
          autoComplete="off"
          errorMessage={fieldError('cvc')}
          isRequired
        />
        <div className="staff-actions staff-form__wide">
          <Button type="submit" isPending={pending} isDisabled={Boolean(amountError)}>
            Charge test card
          </Button>
        </div>
      </form>
      {result ? (
        <p role="status" className="staff-status">
          Charged {formatPrice(result.paymentIntent.amount, result.paymentIntent.currency)} to{' '}
          {BRANDS[result.card.brand] ?? 'card'} ending in {result.card.last4} ({result.paymentIntent.id}).
        </p>
      ) : null}
      {failure ? (
        <p role="alert" className="staff-error">
          {failure.message}
        </p>
      ) : null}
    </section>
  );
}
