import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { fieldErrors } from './common.js';
import {
  cartCountSchema,
  cartItemSchema,
  cartSchema,
  parseEmailList,
  productSchema,
  quantitySchema,
  storeFormSchema,
  storeIdSchema,
  storeSchema,
} from './store.js';

function errorsOf(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
}

const product = { id: 'prod_mic', name: 'Wireless microphone', price: 2_500 };

describe('SPEC §5 Quantities: 1 to 25, default 1', () => {
  it.each([
    [undefined, 1],
    ['', 1],
    [1, 1],
    ['7', 7],
    [25, 25],
  ] as const)('%j -> %i', (input, output) => {
    expect(quantitySchema.parse(input)).toBe(output);
  });

  it.each([0, 26, 2.5, -1, 'many', null])('rejects %j', (input) => {
    expect(errorsOf(quantitySchema, input)).toEqual({ '': 'Please choose a quantity from 1 to 25.' });
  });
});

describe('SPEC §4 Cart: the Update count runs 0 to 25, and 0 removes the item', () => {
  it.each([
    [0, 0],
    ['0', 0],
    [25, 25],
  ] as const)('%j -> %i', (input, output) => {
    expect(cartCountSchema.parse(input)).toBe(output);
  });

  it.each([-1, 26, 0.5, '', undefined])('rejects %j', (input) => {
    expect(errorsOf(cartCountSchema, input)).toEqual({ '': 'Please choose a quantity from 0 to 25.' });
  });
});

describe('SPEC §3 Product', () => {
  it('fills defaults and lowercases the currency', () => {
    expect(
      productSchema.parse({ ...product, currency: 'USD', metadata: { order: '2', color: 'black' } }),
    ).toEqual({
      ...product,
      description: '',
      images: [],
      default_price: null,
      metadata: { order: '2', color: 'black' },
      currency: 'usd',
    });
    expect(productSchema.parse(product).currency).toBe('usd');
  });

  it.each([
    [{ ...product, id: 12 }, true],
    [{ ...product, price: 0 }, true],
    [{ ...product, price: -1 }, false],
    [{ ...product, price: 25.5 }, false],
    [{ ...product, currency: 'dollars' }, false],
    [{ ...product, id: '' }, false],
    [{ ...product, name: '' }, false],
  ] as const)('%j -> %s', (input, ok) => {
    expect(productSchema.safeParse(input).success).toBe(ok);
  });
});

describe('SPEC §3 Cart item', () => {
  it.each([
    [{ product, count: 3 }, true],
    [{ product }, true],
    [{ product, count: 26 }, false],
    [{ product, count: 0 }, false],
    [{ count: 1 }, false],
  ] as const)('%j -> %s', (input, ok) => {
    expect(cartItemSchema.safeParse(input).success).toBe(ok);
  });

  it('a cart is a list of items; a missing count becomes 1', () => {
    expect(cartSchema.parse([{ product }])[0]?.count).toBe(1);
  });
});

const store = {
  id: 1,
  store_id: 'demo-expo',
  name: 'Demo Expo',
  deadline: '2024-01-01',
  start_date: '2024-01-05',
  end_date: '2024-01-07',
};

describe('SPEC §3 Store (is_active default true, is_archived default false)', () => {
  it('fills the defaults', () => {
    expect(storeSchema.parse(store)).toEqual({
      ...store,
      is_active: true,
      is_archived: false,
      image: null,
      order_cutoff: null,
      email_text: '',
      store_text: '',
      bcc: '',
    });
  });

  it.each([
    [{ ...store, products: [product], publicKey: 'pk_test_1', image: 'expo.png' }, true],
    [{ ...store, order_cutoff: '2024-01-03' }, true],
    [{ ...store, order_cutoff: '01/03/2024' }, false],
    [{ ...store, deadline: '2024-02-30' }, false],
    [{ ...store, store_id: 'Demo Expo' }, false],
    [{ ...store, id: 0 }, false],
  ] as const)('%j -> %s', (input, ok) => {
    expect(storeSchema.safeParse(input).success).toBe(ok);
  });
});

describe('SPEC §2 Admin store id (URL path): lowercase letters, digits, dashes, 2-64 long', () => {
  it.each(['demo-expo', 'ab', 'a1', '2024-expo', 'medtech--summit', `a${'b'.repeat(62)}c`, ' demo-expo '])(
    'accepts %j',
    (value) => {
      expect(storeIdSchema.safeParse(value).success).toBe(true);
    },
  );

  it.each([
    '',
    'a',
    'Demo',
    'demo expo',
    'demo_expo',
    '-demo',
    'demo-',
    'démo',
    'demo/expo',
    `a${'b'.repeat(63)}c`,
  ])('rejects %j', (value) => {
    expect(errorsOf(storeIdSchema, value)).toEqual({ '': 'Use lowercase letters, digits and dashes.' });
  });
});

describe('SPEC §2 Admin edit form (with DESIGN deviation 6 order cut-off)', () => {
  const form = {
    name: ' Demo Expo ',
    store_id: 'demo-expo',
    image: 'expo.png',
    deadline: '2024-01-01',
    start_date: '2024-01-05',
    end_date: '2024-01-07',
    bcc: 'a@example.com; b@example.com,c@example.com\n d@example.com',
    email_text: 'See you there!',
    store_text: 'Booth deliveries start at 8.',
  };

  it('parses and normalises a complete form', () => {
    expect(storeFormSchema.parse(form)).toEqual({
      ...form,
      name: 'Demo Expo',
      order_cutoff: null,
      bcc: 'a@example.com, b@example.com, c@example.com, d@example.com',
      is_active: true,
      is_archived: false,
    });
  });

  it.each([
    ['editing keeps the id', { id: 4 }, {}],
    ['no name', { name: '' }, { name: 'Please enter a store name.' }],
    ['bad store id', { store_id: 'Demo Expo' }, { store_id: 'Use lowercase letters, digits and dashes.' }],
    ['no image', { image: '' }, {}],
    ['image absent', { image: undefined }, {}],
    ['image with a slash', { image: 'img/expo.png' }, { image: 'Use a file name without slashes.' }],
    ['image with a backslash', { image: 'img\\expo.png' }, { image: 'Use a file name without slashes.' }],
    ['image ..', { image: '..' }, { image: 'Use a file name without slashes.' }],
    ['image too long', { image: `${'x'.repeat(252)}.png` }, { image: 'Please use at most 255 characters.' }],
    ['no deadline', { deadline: '' }, { deadline: 'This field is required.' }],
    ['bad deadline', { deadline: '1/1/2024' }, { deadline: 'Please enter a valid date.' }],
    ['no start date', { start_date: undefined }, { start_date: 'This field is required.' }],
    [
      'end before start',
      { end_date: '2024-01-04' },
      { end_date: 'The end date must be on or after the start date.' },
    ],
    ['one-day event', { end_date: '2024-01-05' }, {}],
    [
      'bad end date, no order message',
      { end_date: '2024-01-32' },
      { end_date: 'Please enter a valid date.' },
    ],
    ['cut-off after the deadline', { order_cutoff: '2024-01-04' }, {}],
    ['cut-off on the deadline', { order_cutoff: '2024-01-01' }, {}],
    ['cut-off blank', { order_cutoff: '  ' }, {}],
    ['cut-off null', { order_cutoff: null }, {}],
    [
      'cut-off before the deadline',
      { order_cutoff: '2023-12-31' },
      { order_cutoff: 'The order cut-off must be on or after the deadline.' },
    ],
    ['bad cut-off', { order_cutoff: 'soon' }, { order_cutoff: 'Please enter a valid date.' }],
    ['bcc empty', { bcc: '' }, {}],
    ['bcc absent', { bcc: undefined }, {}],
    [
      'bcc with a bad entry',
      { bcc: 'a@example.com, bob@, c@example.com' },
      { bcc: 'Invalid email address: bob@' },
    ],
    ['inactive and archived', { is_active: false, is_archived: true }, {}],
    [
      'the ordering checks still run when another field is missing',
      { name: '', end_date: '2024-01-01' },
      { name: 'Please enter a store name.', end_date: 'The end date must be on or after the start date.' },
    ],
  ] as const)('%s', (_name, change, errors) => {
    expect(errorsOf(storeFormSchema, { ...form, ...change })).toEqual(errors);
  });

  it('keeps a later cut-off as given', () => {
    expect(storeFormSchema.parse({ ...form, order_cutoff: '2024-01-04' }).order_cutoff).toBe('2024-01-04');
  });

  it('lists every bad BCC entry, first one shown', () => {
    const result = storeFormSchema.safeParse({ ...form, bcc: 'x@, y@' });
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'Invalid email address: x@',
      'Invalid email address: y@',
    ]);
  });
});

describe('BCC list parsing (comma, semicolon or whitespace separated)', () => {
  it.each([
    ['', []],
    [' ; , ', []],
    ['a@x.co', ['a@x.co']],
    ['a@x.co,b@x.co', ['a@x.co', 'b@x.co']],
    ['a@x.co; b@x.co\tc@x.co\r\nd@x.co', ['a@x.co', 'b@x.co', 'c@x.co', 'd@x.co']],
    [',a@x.co,,', ['a@x.co']],
  ] as const)('%j -> %j', (text, list) => {
    expect(parseEmailList(text)).toEqual(list);
  });
});
