import type { OrderCustomerInfoInput } from '@avp/shared';
import { seedDemo } from '../../src/db/seed-demo.js';
import type { TestApp } from './app.js';
import { TestBrowser } from './browser.js';
import type { CallResult } from './browser.js';

/**
 * The exhibitor's side of the store calls, as a browser makes them: JSON with an Origin header naming the
 * app (the same-origin check), and the order token in X-Order-Token.
 */

export interface StoreJson {
  store_id: string;
  start_date: string;
  end_date: string;
  deadline: string;
  closed: boolean;
  early_bird: boolean;
  gateway: string;
  publicKey?: string;
  products: { id: number; name: string; price: number; currency: string; metadata: { order: number } }[];
}

export interface IntentJson {
  orderId: string;
  token: string;
  clientSecret: string;
  intentID: string;
  gateway: string;
  publicKey?: string;
  subtotal: number;
  discount: number;
  fee: number;
  total: number;
  earlyBird: boolean;
  lines: { productId: number; quantity: number; unitAmount: number; lineTotal: number }[];
}

export interface PaymentJson {
  orderId: string;
  status: string;
  confirmation: string | null;
  paymentIntent: { id: string; amount: number; currency: string; status: string };
}

export interface ErrorJson {
  error: { code: string; message: string; fields?: Record<string, string> };
}

export async function seeded(t: TestApp): Promise<void> {
  await seedDemo(t.db, { timeZone: t.config.TZ_STORE });
}

export function customerFor(store: Pick<StoreJson, 'start_date' | 'end_date'>): OrderCustomerInfoInput {
  return {
    company: 'Acme Widgets',
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@acme.example',
    phone: '(312) 555-0101',
    address: '1 Main St',
    city: 'Chicago',
    state: 'IL',
    zip: '60607',
    onsiteFirstName: 'Alan',
    onsiteLastName: 'Turing',
    onsiteEmail: 'alan@acme.example',
    onsitePhone: '312-555-0102',
    booth: '1142',
    room: 'Hall B',
    deliveryDate: store.start_date,
    deliveryTime: '8:00 AM',
    pickupDate: store.end_date,
    pickupTime: '5:00 PM',
  };
}

export const VISA = { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' };
export const DECLINED = { number: '4000 0000 0000 0002', expiry: '12 / 40', cvc: '123' };

export class Exhibitor extends TestBrowser {
  constructor(readonly app: TestApp) {
    super(app.url);
  }

  store(storeId = 'demo-expo') {
    return this.get<{ store: StoreJson }>(`/api/stores/${storeId}`);
  }

  createIntent(body: unknown, storeId = 'demo-expo') {
    return this.post<IntentJson & ErrorJson>(`/api/stores/${storeId}/payment-intents`, body);
  }

  updateIntent(intent: Pick<IntentJson, 'orderId' | 'token'>, body: unknown) {
    return this.put<IntentJson & ErrorJson>(`/api/orders/${intent.orderId}`, body, {
      'x-order-token': intent.token,
    });
  }

  pay(intent: Pick<IntentJson, 'orderId' | 'token'>, card: unknown = VISA) {
    return this.post<PaymentJson & ErrorJson>(
      `/api/orders/${intent.orderId}/pay`,
      { card },
      { 'x-order-token': intent.token },
    );
  }

  confirm(intent: Pick<IntentJson, 'orderId' | 'token'>) {
    return this.post<PaymentJson & ErrorJson>(
      `/api/orders/${intent.orderId}/confirm`,
      {},
      { 'x-order-token': intent.token },
    );
  }

  order(intent: Pick<IntentJson, 'orderId' | 'token'>) {
    return this.get<{ order: Record<string, unknown> } & ErrorJson>(`/api/orders/${intent.orderId}`, {
      'x-order-token': intent.token,
    });
  }

  /** The whole flow with the test gateway: create, submit, pay with 4242. */
  async checkout(
    cart: { productId: number; count: number }[],
  ): Promise<{ intent: IntentJson; paid: CallResult<PaymentJson & ErrorJson> }> {
    const { body } = await this.store();
    const created = await this.createIntent({ cart });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
    const updated = await this.updateIntent(created.body, { cart, customer: customerFor(body.store) });
    if (updated.status !== 200) throw new Error(`update: ${updated.status} ${JSON.stringify(updated.body)}`);
    return { intent: created.body, paid: await this.pay(created.body) };
  }
}
