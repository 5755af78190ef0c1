import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { fieldErrors } from './common.js';
import {
  checkoutFormSchema,
  copyPurchaserToOnsite,
  orderCustomerInfoSchema,
  paymentIntentSchema,
  payNowSchema,
} from './order.js';

function errorsOf(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
}

const info = {
  company: 'Acme',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '415-555-2671',
  address: '1 Main St',
  city: 'Boston',
  state: 'MA',
  zip: '02110',
  onsiteFirstName: 'Grace',
  onsiteLastName: 'Hopper',
  onsiteEmail: 'grace@example.com',
  onsitePhone: '+1 (617) 555-0100 x12',
  booth: '42A',
  room: '',
  deliveryDate: '2024-01-05',
  deliveryTime: '8:00 AM',
  pickupDate: '2024-01-07',
  pickupTime: '5:00 PM',
};

const REQUIRED = [
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
  'deliveryDate',
  'deliveryTime',
  'pickupDate',
  'pickupTime',
] as const;

describe('SPEC §3/§5 Checkout: every customer-info field is required except room', () => {
  it('accepts a complete form', () => {
    expect(orderCustomerInfoSchema.parse(info)).toEqual(info);
  });

  it.each(REQUIRED)('%s is required', (field) => {
    expect(errorsOf(orderCustomerInfoSchema, { ...info, [field]: '' })).toEqual({
      [field]: 'This field is required.',
    });
    expect(errorsOf(orderCustomerInfoSchema, { ...info, [field]: undefined })).toEqual({
      [field]: 'This field is required.',
    });
  });

  it('room is optional', () => {
    expect(orderCustomerInfoSchema.parse({ ...info, room: undefined }).room).toBe('');
    expect(orderCustomerInfoSchema.parse({ ...info, room: ' Hall B ' }).room).toBe('Hall B');
  });

  it.each([
    ['email', 'ada@'],
    ['onsiteEmail', 'grace'],
  ] as const)('%s uses the order e-mail check: %j', (field, value) => {
    expect(errorsOf(orderCustomerInfoSchema, { ...info, [field]: value })).toEqual({
      [field]: 'Please enter a valid email address.',
    });
  });

  it.each([
    ['phone', '555-0100'],
    ['phone', '(617) 555-0100 ext 5'],
    ['onsitePhone', '617/555/0100'],
  ] as const)('%s uses the order phone check: %j', (field, value) => {
    expect(errorsOf(orderCustomerInfoSchema, { ...info, [field]: value })).toEqual({
      [field]: 'Please enter a valid phone number.',
    });
  });

  it.each(['617.555.0100', '1 617 555 0100', '(617)555-0100'])(
    'accepts the North American phone %j',
    (phone) => {
      expect(errorsOf(orderCustomerInfoSchema, { ...info, phone })).toEqual({});
    },
  );

  it.each([
    ['8:00 AM', true],
    ['08:00 am', true],
    ['12:30 PM', true],
    ['5:00PM', true],
    ['13:00', false],
    ['13:00 PM', false],
    ['0:30 AM', false],
    ['8:0 AM', false],
    ['8:60 AM', false],
    ['noon', false],
  ] as const)('delivery time %j -> %s', (deliveryTime, ok) => {
    expect(errorsOf(orderCustomerInfoSchema, { ...info, deliveryTime })).toEqual(
      ok ? {} : { deliveryTime: 'Invalid Time Format (h:mm A)' },
    );
  });

  it('an invalid date gets a date message', () => {
    expect(errorsOf(orderCustomerInfoSchema, { ...info, pickupDate: '1/7/2024' })).toEqual({
      pickupDate: 'Please enter a valid date.',
    });
  });
});

describe('SPEC §5 Date constraints on the checkout form (event Jan 5 to Jan 7, 2024)', () => {
  const schema = checkoutFormSchema({ start_date: '2024-01-05', end_date: '2024-01-07' });

  it.each([
    ['whole event', '2024-01-05', '2024-01-07', {}],
    ['same day', '2024-01-06', '2024-01-06', {}],
    [
      'delivery before the event',
      '2024-01-04',
      '2024-01-07',
      { deliveryDate: 'Date must be after Jan 4, 2024' },
    ],
    ['pickup after the event', '2024-01-05', '2024-01-08', { pickupDate: 'Date must be before Jan 8, 2024' }],
    [
      'delivery after pickup',
      '2024-01-07',
      '2024-01-06',
      { deliveryDate: 'Date must be before Jan 7, 2024', pickupDate: 'Date must be after Jan 6, 2024' },
    ],
    [
      'delivery after the event (no valid pickup)',
      '2024-01-08',
      '',
      { deliveryDate: 'Date must be before Jan 8, 2024', pickupDate: 'This field is required.' },
    ],
    [
      'pickup before the event (no valid delivery)',
      'x',
      '2024-01-04',
      { deliveryDate: 'Please enter a valid date.', pickupDate: 'Date must be after Jan 4, 2024' },
    ],
  ] as const)('%s', (_name, deliveryDate, pickupDate, errors) => {
    expect(errorsOf(schema, { ...info, deliveryDate, pickupDate })).toEqual(errors);
  });

  it('checks the dates even while other fields are still empty', () => {
    expect(errorsOf(schema, { ...info, booth: '', deliveryDate: '2024-01-01' })).toEqual({
      booth: 'This field is required.',
      deliveryDate: 'Date must be after Jan 4, 2024',
    });
  });

  it('skips the date checks when a date has the wrong type', () => {
    expect(errorsOf(schema, { ...info, deliveryDate: 5 })).toEqual({
      deliveryDate: 'This field is required.',
    });
  });
});

describe('SPEC §2 "Onsite contact is the same as the purchaser"', () => {
  it('copies name, e-mail and phone and keeps the rest', () => {
    const copied = copyPurchaserToOnsite({ ...info, onsiteFirstName: '', onsiteEmail: '' });
    expect(copied).toEqual({
      ...info,
      onsiteFirstName: 'Ada',
      onsiteLastName: 'Lovelace',
      onsiteEmail: 'ada@example.com',
      onsitePhone: '415-555-2671',
    });
  });
});

describe('SPEC §3 Payment intent and §5 Pay now', () => {
  it.each([
    [{ clientSecret: 'pi_1_secret_2', intentID: 'pi_1', confirmation: 'AVP-1234' }, true],
    [{ clientSecret: '', intentID: 'pi_1', confirmation: 'AVP-1234' }, false],
    [{ clientSecret: 's', intentID: 'pi_1' }, false],
  ] as const)('payment intent %j -> %s', (input, ok) => {
    expect(paymentIntentSchema.safeParse(input).success).toBe(ok);
  });

  it.each([
    [{ terms: true }, {}],
    [{ terms: false }, { terms: 'Please accept the rental terms.' }],
    [{}, { terms: 'Please accept the rental terms.' }],
  ] as const)('pay now %j -> %j', (input, errors) => {
    expect(errorsOf(payNowSchema, input)).toEqual(errors);
  });
});
