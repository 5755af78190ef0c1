import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import { QueryProvider } from '../../../app/QueryProvider';
import { fakeApi, type FakeAnswer } from '../../../test/fakeApi';
import { OrderList } from './OrderList';

function order(id: string, company: string) {
  return {
    id,
    confirmation: `AVP-${id}`,
    status: 'paid',
    store: { id: 1, store_id: 'demo-expo', name: 'Demo Expo' },
    company,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    booth: '12',
    delivery_date: '',
    subtotal: 1000,
    discount: 0,
    fee: 240,
    total: 1240,
    refunded_amount: 0,
    currency: 'usd',
    created_at: '2026-01-02T10:00:00.000Z',
    paid_at: '2026-01-02T10:01:00.000Z',
  };
}

describe('the staff order list', () => {
  let api: ReturnType<typeof fakeApi> | undefined;
  afterEach(() => {
    api?.restore();
    vi.restoreAllMocks();
  });

  it('shows the answer to the newest filters even when an older answer arrives after it', async () => {
    let answerSettled: (answer: FakeAnswer) => void = () => undefined;
    api = fakeApi(({ path }) => {
      if (path === '/api/staff/stores') return { status: 200, body: { stores: [], store: null } };
      if (path === '/api/staff/orders?status=settled')
        return new Promise<FakeAnswer>((resolve) => (answerSettled = resolve));
      if (path === '/api/staff/orders?status=all')
        return { status: 200, body: { orders: [order('new', 'Newest Filters Inc')] } };
      return undefined;
    });
    const user = userEvent.setup();
    render(
      <QueryProvider>
        <MemoryRouter>
          <OrderList />
        </MemoryRouter>
      </QueryProvider>,
    );
    await waitFor(() =>
      expect(api!.calls.some((c) => c.path === '/api/staff/orders?status=settled')).toBe(true),
    );

    await user.click(screen.getByRole('button', { name: /Status/ }));
    await user.click(await screen.findByRole('option', { name: 'All' }));
    const table = await screen.findByRole('table', { name: 'Orders' });
    expect(within(table).getByText('Newest Filters Inc')).toBeTruthy();

    // The first question's answer comes last: it must not replace what the newest filters asked for.
    const reads = vi.spyOn(Response.prototype, 'text');
    answerSettled({ status: 200, body: { orders: [order('old', 'Stale Filters Ltd')] } });
    // The page has read the late answer (lib/api.ts reads every body as text) and done what it does with it.
    await waitFor(() => expect(reads).toHaveBeenCalled());
    await act(async () => {
      await Promise.allSettled(reads.mock.results.map((result) => result.value as Promise<string>));
    });
    expect(screen.queryByText('Stale Filters Ltd')).toBeNull();
    expect(
      within(screen.getByRole('table', { name: 'Orders' })).getByText('Newest Filters Inc'),
    ).toBeTruthy();
  });
});
