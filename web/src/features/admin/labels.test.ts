import type { AuditEntry } from '@avp/shared';
import { describe, expect, it } from 'vitest';
import { auditSentence, orderStatusLabel, refundStatusLabel } from './labels';

function entry(
  action: string,
  before: AuditEntry['before'],
  after: AuditEntry['after'],
  more: Partial<AuditEntry> = {},
) {
  return {
    id: 1,
    at: '2026-11-26T02:39:35.000Z',
    action,
    entity: 'order',
    entityId: '3f2a9c1b-aaaa-bbbb-cccc-123456789012',
    storeId: 7,
    actor: null,
    before,
    after,
    ...more,
  } satisfies AuditEntry;
}

describe('status labels', () => {
  it('reads order statuses in words', () => {
    expect(orderStatusLabel('partially_refunded')).toBe('Partially refunded');
    expect(orderStatusLabel('needs_review')).toBe('Needs review');
    expect(orderStatusLabel('paid')).toBe('Paid');
    expect(orderStatusLabel('some_new_state')).toBe('Some new state');
    expect(refundStatusLabel('succeeded')).toBe('Succeeded');
  });
});

describe('audit sentences', () => {
  it('a refund, with its money formatted and the order status in words', () => {
    const sentence = auditSentence(
      entry(
        'order_refund',
        { status: 'paid', refunded_amount: 0 },
        {
          status: 'partially_refunded',
          refunded_amount: 1250,
          refund: { amount: 1250, reason: 'Damaged', gateway_refund_id: 'r_1' },
        },
      ),
    );
    expect(sentence).toBe(
      'Refunded $12.50 of order 3f2a9c1b: “Damaged”. $12.50 refunded in all; the order is now partially refunded.',
    );
  });

  it('a store change names the store and what changed, dates read as dates', () => {
    const sentence = auditSentence(
      entry(
        'store_update',
        { name: 'Expo', deadline: '2027-01-05', is_active: true },
        { name: 'Expo', deadline: '2027-01-10', is_active: true },
        { entity: 'store', entityId: '7' },
      ),
    );
    expect(sentence).toBe('Changed store “Expo”: deadline from Jan 5, 2027 to Jan 10, 2027.');
  });

  it('a flag change takes the store name from the list', () => {
    const stores = new Map([[7, 'Demo Expo']]);
    expect(
      auditSentence(entry('store_archive', { is_archived: false }, { is_archived: true }), { stores }),
    ).toBe('Archived store “Demo Expo”.');
  });

  it('prices in dollars, products by name', () => {
    const products = new Map([
      [3, 'Projector'],
      [5, 'Screen'],
    ]);
    const stores = new Map([[7, 'Demo Expo']]);
    expect(
      auditSentence(entry('prices_update', { 3: 10000, 4: 500 }, { 3: 12000, 5: 2500 }), {
        products,
        stores,
      }),
    ).toBe(
      'Changed prices in store “Demo Expo”: Projector from $100.00 to $120.00; product #4 removed (was $5.00); Screen added at $25.00.',
    );
  });

  it('a held payment and a payment test', () => {
    expect(
      auditSentence(
        entry(
          'order_payment_review',
          { status: 'pending', total: 20000, currency: 'usd' },
          { status: 'needs_review', amount_received: 15000, received_currency: 'usd' },
        ),
      ),
    ).toBe('Held order 3f2a9c1b for review: the provider captured $150.00 against a total of $200.00.');
    expect(
      auditSentence(
        entry('payment_test', null, {
          amount: 100,
          currency: 'usd',
          outcome: 'succeeded',
          card: { brand: 'visa', last4: '4242' },
        }),
      ),
    ).toBe('Payment test: charged $1.00 on Visa ending in 4242.');
    expect(
      auditSentence(entry('payment_test', null, { amount: 100, currency: 'usd', outcome: 'card_declined' })),
    ).toBe('Payment test: $1.00 refused (card declined).');
  });

  it('account events', () => {
    expect(auditSentence(entry('sign_in', null, { how: 'password', via: 'cookie' }))).toBe(
      'Signed in with a password in a browser.',
    );
    expect(auditSentence(entry('sign_in', null, { how: 'password', via: 'token' }))).toBe(
      'Signed in with a password from the desktop uploader.',
    );
    expect(auditSentence(entry('account_create', null, null))).toBe('Created an account.');
    expect(auditSentence(entry('password_change', null, { otherSessionsEnded: 2 }))).toBe(
      'Changed the password; 2 other sessions ended.',
    );
    expect(auditSentence(entry('password_reset', null, { sessionsEnded: 1 }))).toBe(
      'Set a new password from an e-mailed link; 1 session ended.',
    );
  });

  it('an unknown action still reads as words', () => {
    expect(auditSentence(entry('something_new', { a: 1 }, { a: 2 }))).toBe('Something new: a from 1 to 2.');
  });
});
