import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { PAYMENT_SERVER_ERROR } from '@avp/shared';
import { useImperativeHandle, type Ref } from 'react';
import { storeApi, type StoredIntent } from '../api';
import { PaymentFailure, type PaymentMethodHandle } from './types';

/**
 * Stripe's Payment Element (automatic payment methods) through @stripe/react-stripe-js. Loaded on demand:
 * only a store that takes payments with Stripe brings Stripe.js into the page. Confirmation redirects only
 * when the payment method requires it; the server then checks the intent with Stripe and settles the order.
 */
const stripes = new Map<string, Promise<Stripe | null>>();

function stripeFor(publicKey: string): Promise<Stripe | null> {
  let promise = stripes.get(publicKey);
  if (!promise) {
    promise = loadStripe(publicKey);
    stripes.set(publicKey, promise);
  }
  return promise;
}

/** Where Stripe sends the exhibitor back after a redirect-based method. */
export function returnUrl(intent: StoredIntent): string {
  return `${window.location.origin}/payment?order=${encodeURIComponent(intent.orderId)}`;
}

export default function StripeMethod({
  intent,
  handle,
  onInputError,
}: {
  intent: StoredIntent;
  handle: Ref<PaymentMethodHandle>;
  onInputError: (message: string | null) => void;
}) {
  if (!intent.publicKey) return <p role="alert">{PAYMENT_SERVER_ERROR}</p>;
  return (
    <Elements
      key={intent.clientSecret}
      stripe={stripeFor(intent.publicKey)}
      options={{ clientSecret: intent.clientSecret, appearance: { theme: 'stripe' } }}
    >
      <StripeFields handle={handle} onInputError={onInputError} />
    </Elements>
  );
}

function StripeFields({
  handle,
  onInputError,
}: {
  handle: Ref<PaymentMethodHandle>;
  onInputError: (message: string | null) => void;
}) {
  const stripe = useStripe();
  const elements = useElements();

  useImperativeHandle(
    handle,
    () => ({
      async validate() {
        if (!stripe || !elements) return PAYMENT_SERVER_ERROR;
        const { error } = await elements.submit();
        return error ? (error.message ?? PAYMENT_SERVER_ERROR) : null;
      },
      async pay(intent) {
        if (!stripe || !elements) throw new Error('Stripe is not ready');
        // The server has just set the intent's amount to the order's: the Element takes it before confirming.
        await elements.fetchUpdates();
        const { error } = await stripe.confirmPayment({
          elements,
          clientSecret: intent.clientSecret,
          redirect: 'if_required',
          confirmParams: { return_url: returnUrl(intent) },
        });
        if (error) throw new PaymentFailure(error.message ?? 'Your payment could not be completed.');
        return storeApi.confirm(intent);
      },
    }),
    [stripe, elements],
  );

  return (
    <PaymentElement
      onChange={(event) => {
        // The Element shows its own field messages; a complete, valid entry clears ours.
        if (event.complete || event.empty) onInputError(null);
      }}
    />
  );
}
