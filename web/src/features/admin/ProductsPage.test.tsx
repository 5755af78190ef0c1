import type { StaffProduct } from '@avp/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, type FakeAnswer } from '../../test/fakeApi';
import ProductsPage from './ProductsPage';

let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => api?.restore());

function product(id: number, name: string): StaffProduct {
  return {
    id,
    name,
    description: `${name} for the booth`,
    images: [],
    sort_order: id,
    is_active: true,
    stores: 1,
  };
}

const SEEDED = [product(1, 'Laptop Rental'), product(2, 'Charging Station')];
const SAVED = [...SEEDED, product(3, 'Fog machine')];

describe('the staff Products page', () => {
  it('keeps a product saved while the first load is still on its way (the late load does not undo it)', async () => {
    let answerFirstLoad: (answer: FakeAnswer) => void = () => undefined;
    let loads = 0;
    api = fakeApi(({ method, path }) => {
      if (path === '/api/staff/stores') return { status: 200, body: { stores: [], store: null } };
      if (method === 'GET' && path === '/api/staff/products') {
        loads++;
        // The first load answers the list as it was before the save, and only after the save's answer.
        if (loads === 1) return new Promise<FakeAnswer>((resolve) => (answerFirstLoad = resolve));
        return { status: 200, body: { products: SAVED } };
      }
      if (method === 'POST' && path === '/api/staff/products')
        return { status: 201, body: { products: SAVED } };
      return undefined;
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={client}>
        <ProductsPage />
      </QueryClientProvider>,
    );
    const form = screen.getByRole('form', { name: 'Product' });
    await user.type(within(form).getByRole('textbox', { name: 'Product name' }), 'Fog machine');
    await user.type(within(form).getByRole('textbox', { name: 'Product description' }), 'Low-lying fog');
    await user.click(within(form).getByRole('button', { name: 'Save product' }));
    expect(await screen.findByText('Product saved.')).toBeTruthy();
    const table = () => screen.getByRole('table', { name: 'Products' });
    expect(within(table()).getByRole('cell', { name: 'Fog machine' })).toBeTruthy();

    // The load sent before the save answers now, with the list as it was.
    await act(async () => answerFirstLoad({ status: 200, body: { products: SEEDED } }));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(within(table()).queryByRole('cell', { name: 'Fog machine' })).toBeTruthy();
    expect(within(table()).getAllByRole('row')).toHaveLength(SAVED.length + 1);
  });
});
