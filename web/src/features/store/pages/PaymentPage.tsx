import {
  checkoutFormSchema,
  CHECKOUT_INCOMPLETE,
  PAYMENT_SERVER_ERROR,
  paymentFailed,
  STORE_CLOSED_TRANSACTION,
} from '@avp/shared';
import { Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { flushSync } from 'react-dom';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { lazyModule } from '../../../lib/lazyModule';
import { Button, Checkbox } from '../../../ui';
import { ApiError } from '../../../lib/api';
import { StockShortError, storeApi, type PaymentResult, type StoreData, type StoredIntent } from '../api';
import '../store.css';
import { CartSummary } from '../components/CartSummary';
import { StoreFrame } from '../components/StoreFrame';
import { isStaleIntentError, recordHold, renewIntent, useOrderIntent } from '../intent';
import { HoldTimer } from '../components/HoldTimer';
import { StockNotice, useShortages } from '../components/StockNotice';
import { storeQuery } from '../useStoreData';
import { TestCardForm } from '../payment/TestCardForm';
import { ConfirmationPage } from '../confirmationPage';
import { CardInputError, PaymentFailure, type PaymentMethodHandle } from '../payment/types';
import { currencyOf, currentCart, previewAmounts, summaryLines } from '../pricing';
import {
  cartRequest,
  forgetIntent,
  recordPayment,
  useCart,
  useCurrentStoreId,
  useCustomerDraft,
  type Cart,
  type CustomerDraft,
} from '../state';

const StripeMethod = lazyModule(
  'src/features/store/payment/StripeMethod.tsx',
  () => import('../payment/StripeMethod'),
);

/** SPEC §2 / §9 fine print, on the terms checkbox. */
export const RENTAL_TERMS =
  'I accept the rental terms: rental does NOT include electrical services in the booth, and the renter is responsible for loss or damage of equipment in the booth.';
export const PAY_NOW = 'Pay now';
export const PROCESSING = 'Processing your payment…';
export const LOADING_RECEIPT = 'Payment received. Loading your receipt…';

/** /payment (SPEC §2): the card form, the terms and Pay now, for the store the exhibitor is ordering from. */
export default function PaymentPage() {
  const storeId = useCurrentStoreId();
  if (!storeId) return <Navigate to="/exhibitor_order" replace />;
  return (
    <StoreFrame key={storeId} storeId={storeId}>
      {(store) => <Payment store={store} />}
    </StoreFrame>
  );
}

function customerOf(draft: CustomerDraft | undefined): Record<string, string> {
  const { onsiteSame: _onsiteSame, ...fields } = draft ?? {};
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => typeof v === 'string')) as Record<
    string,
    string
  >;
}

/**
 * Proceeding to payment holds the order's lines afresh (issue #32): the cart and rental information are
 * sent once the page has them, and again when the cart changes. A refusal for stock is kept to be shown;
 * any other is left to Pay now, which sends the same again and words its failures.
 */
function useHold(
  store: StoreData,
  intent: StoredIntent | null,
  cart: Cart,
  customer: Record<string, string>,
  ready: boolean,
) {
  const [refusal, setRefusal] = useState<StockShortError | null>(null);
  const signature = cart.map((line) => `${line.product.id}:${line.count}`).join(',');
  const orderId = intent?.orderId;
  useEffect(() => {
    if (!intent || !ready || cart.length === 0) return;
    let live = true;
    storeApi.updateIntent(intent, cartRequest(cart), customer).then(
      (answer) => {
        if (!live) return;
        setRefusal(null);
        recordHold(store.store_id, intent, answer);
      },
      (error: unknown) => {
        if (live) setRefusal(error instanceof StockShortError ? error : null);
      },
    );
    return () => {
      live = false;
    };
    // Once per order and cart: the intent's own fields change when the hold is recorded.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [orderId, signature, ready]);
  return { refusal, setRefusal };
}

/** The provider has the money or is taking it: the confirmation page follows the order from here. */
function settled(result: PaymentResult): boolean {
  return (
    result.status === 'paid' ||
    result.status === 'needs_review' ||
    result.paymentIntent.status === 'processing'
  );
}

/** The text for a failure at any step: the spec's own where it has one. */
function failureText(error: unknown): { payment?: string; input?: string } {
  if (error instanceof CardInputError) return { input: error.message };
  if (error instanceof PaymentFailure) return { payment: paymentFailed(error.message) };
  if (error instanceof ApiError && error.code === 'store_closed')
    return { payment: STORE_CLOSED_TRANSACTION };
  if (error instanceof ApiError && error.code === 'order_frozen') return { payment: error.message };
  // An invalid e-mail (or anything else the server refuses) at payment: SPEC §8.
  return { payment: PAYMENT_SERVER_ERROR };
}

function Payment({ store }: { store: StoreData }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const { cart: stored } = useCart(store.store_id);
  const cart = currentCart(store, stored);
  const { draft } = useCustomerDraft(store.store_id);
  const { intent, error: intentError, retry } = useOrderIntent(store, cart);
  const [terms, setTerms] = useState(false);
  const [phase, setPhase] = useState<'idle' | 'processing' | 'success'>('idle');
  const [paymentError, setPaymentError] = useState<string | null>(null);
  // After a refusal focus goes to the alert, not to <body>: the Pay Now button was disabled under it.
  const paymentAlert = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (paymentError) paymentAlert.current?.focus();
  }, [paymentError]);
  const [inputError, setInputError] = useState<string | null>(null);
  const method = useRef<PaymentMethodHandle>(null);

  const customer = customerOf(draft);
  const infoComplete = checkoutFormSchema(store).safeParse(customer).success;
  const redirected = params.get('redirect_status');
  const { refusal, setRefusal } = useHold(store, intent, cart, customer, infoComplete && !redirected);
  const shortages = useShortages(cart, intent, intentError ?? refusal, retry);
  const holdEnded = () =>
    void queryClient.invalidateQueries({ queryKey: storeQuery(store.store_id).queryKey });

  // The receipt's code is fetched while the exhibitor types, so the confirmation follows at once.
  useEffect(() => {
    void ConfirmationPage.preload();
  }, []);

  const succeed = (result: PaymentResult, paidIntent: StoredIntent) => {
    // Committed before the cart is cleared: the emptied payment page must never be drawn.
    flushSync(() => setPhase('success'));
    recordPayment({ orderId: result.orderId, token: paidIntent.token, storeId: store.store_id });
    void navigate('/confirmation');
  };

  // Back from a payment method that had to redirect (Stripe's return_url): ask the server how it went.
  useEffect(() => {
    if (!redirected || !intent) return;
    let live = true;
    storeApi.confirm(intent).then(
      (result) => {
        if (!live) return;
        if (settled(result)) succeed(result, intent);
        else {
          setPaymentError(paymentFailed('Your payment was not completed.'));
          setParams({}, { replace: true });
        }
      },
      () => {
        if (live) setPaymentError(PAYMENT_SERVER_ERROR);
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [redirected, intent]);

  const payNow = async () => {
    const form = method.current;
    if (!intent || !form) return;
    setPaymentError(null);
    setPhase('processing');
    try {
      const problem = await form.validate();
      if (problem) throw new CardInputError(problem);
      let current = intent;
      try {
        recordHold(
          store.store_id,
          current,
          await storeApi.updateIntent(current, cartRequest(cart), customer),
        );
      } catch (error) {
        if (error instanceof StockShortError) {
          // Taken meanwhile: the notice above names what is left, and nothing is paid.
          setRefusal(error);
          setPhase('idle');
          return;
        }
        if (error instanceof ApiError && error.code === 'order_frozen') {
          // This order's payment is already under way (another tab, a lost answer): follow it, never pay twice.
          const state = await storeApi.confirm(current);
          if (settled(state)) return succeed(state, current);
          forgetIntent(store.store_id);
          throw error;
        }
        if (!isStaleIntentError(error)) throw error;
        // The kept order was settled or dropped meanwhile: a new one, then the same submit again.
        current = await renewIntent(queryClient, store, cart);
        if (current.gateway !== 'test-gateway') throw error;
        recordHold(
          store.store_id,
          current,
          await storeApi.updateIntent(current, cartRequest(cart), customer),
        );
      }
      const result = await form.pay(current);
      if (settled(result)) succeed(result, current);
      else throw new PaymentFailure('Your payment was not completed.');
    } catch (error) {
      const text = failureText(error);
      setInputError(text.input ?? null);
      setPaymentError(text.payment ?? null);
      setPhase('idle');
    }
  };

  if (phase === 'success') {
    return (
      <section className="store-panel" aria-label="Payment">
        <h2 className="store-panel__title">Thank you</h2>
        <p className="store-loading" role="status">
          {LOADING_RECEIPT}
        </p>
      </section>
    );
  }

  return (
    <>
      <CartSummary
        lines={summaryLines(cart)}
        amounts={previewAmounts(store, cart)}
        currency={currencyOf(store)}
      />
      <section className="store-panel store-payment" aria-label="Payment" aria-busy={phase === 'processing'}>
        <h2 className="store-panel__title">Payment</h2>
        <StockNotice store={store} shortages={shortages} />
        {intent?.holdExpiresAt && shortages.length === 0 && cart.length > 0 ? (
          <HoldTimer key={intent.holdExpiresAt} expiresAt={intent.holdExpiresAt} onEnded={holdEnded} />
        ) : null}
        {infoComplete ? null : (
          <p className="store-alert" role="status">
            {CHECKOUT_INCOMPLETE}{' '}
            <Link to={`/exhibitor_order/${encodeURIComponent(store.store_id)}/checkout`}>
              Back to rental information
            </Link>
          </p>
        )}
        <PaymentForm
          store={store}
          cart={cart}
          intent={intent}
          intentError={intentError}
          retry={retry}
          method={method}
          onInputError={setInputError}
        />
        {inputError ? (
          <p className="kit-error store-card-error" role="alert">
            {inputError}
          </p>
        ) : null}
        <Checkbox label={RENTAL_TERMS} value={terms} onChange={setTerms} isDisabled={phase !== 'idle'} />
        <div className="store-form__actions">
          <Button
            onPress={() => void payNow()}
            isDisabled={!terms || !intent || phase !== 'idle' || shortages.length > 0}
          >
            {PAY_NOW}
          </Button>
          {infoComplete ? (
            <Link to={`/exhibitor_order/${encodeURIComponent(store.store_id)}/checkout`}>
              Back to rental information
            </Link>
          ) : null}
        </div>
        {paymentError ? (
          <p className="store-alert store-alert--error" role="alert" tabIndex={-1} ref={paymentAlert}>
            {paymentError}
          </p>
        ) : null}
      </section>
      {phase === 'processing' ? (
        <div className="store-overlay" role="status" aria-live="polite">
          <span className="store-spinner" aria-hidden="true" />
          <span>{PROCESSING}</span>
        </div>
      ) : null}
    </>
  );
}

function PaymentForm({
  store,
  cart,
  intent,
  intentError,
  retry,
  method,
  onInputError,
}: {
  store: StoreData;
  cart: Cart;
  intent: StoredIntent | null;
  intentError: Error | null;
  retry: () => void;
  method: RefObject<PaymentMethodHandle | null>;
  onInputError: (message: string | null) => void;
}) {
  if (cart.length === 0) {
    return (
      <p>
        <Link to={`/exhibitor_order/${encodeURIComponent(store.store_id)}`}>Choose your equipment</Link>{' '}
        before paying.
      </p>
    );
  }
  // The stock notice above says what is short and offers to set the cart to it.
  if (intentError instanceof StockShortError) return null;
  if (intentError) {
    const closed = intentError instanceof ApiError && intentError.code === 'store_closed';
    return (
      <div className="store-alert store-alert--error" role="alert">
        <p>{closed ? STORE_CLOSED_TRANSACTION : PAYMENT_SERVER_ERROR}</p>
        {closed ? null : <Button onPress={retry}>Retry</Button>}
      </div>
    );
  }
  // SPEC §2: the card element appears only once a client secret exists.
  if (!intent) {
    return (
      <p className="store-loading" role="status">
        Preparing the payment form…
      </p>
    );
  }
  if (intent.gateway === 'stripe') {
    return (
      <Suspense fallback={<p className="store-loading">Loading the payment form…</p>}>
        <StripeMethod intent={intent} handle={method} onInputError={onInputError} />
      </Suspense>
    );
  }
  return <TestCardForm handle={method} onInputError={onInputError} />;
}
