import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ADDRESS_MAX,
  COMPANY_MAX,
  EMAIL_MAX,
  LONG_TEXT_MAX,
  NAME_LONG_MAX,
  NAME_MAX,
  PHONE_MAX,
  SHORT_TEXT_MAX,
  TITLE_MAX,
  UPLOAD_DESCRIPTION_MAX,
} from '../constants.js';
import { PASSWORD_TOO_LONG, TEXT_HAS_NUL, tooManyCharacters } from '../messages.js';
import { submissionFieldsSchema } from '../upload-client/protocol.js';
import { forgotPasswordSchema, loginFormSchema, registrationSchema } from './account.js';
import { characterCount, fieldErrors } from './common.js';
import { contactFormSchema, newsletterFormSchema } from './contact.js';
import { orderCustomerInfoSchema } from './order.js';
import { storeFormSchema } from './store.js';
import {
  creativeUploadFormSchema,
  eventUploadFormSchema,
  sponsorUploadFormSchema,
  uploadFileRegistrationSchema,
  uploadSubmissionSchema,
} from './upload.js';

/**
 * Every text a form sends is stored, so each has the bound of its column (api/src/db/migrations) and
 * refuses NUL, which PostgreSQL refuses in text. Lengths are counted in characters: an astral character
 * (two UTF-16 units) counts once, as PostgreSQL's varchar(n) counts it.
 */

function errorsOf(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
}

/** `n` characters of text, half of them astral (two UTF-16 units each). */
function textOf(n: number): string {
  const value = '𝒜'.repeat(Math.floor(n / 2)) + 'a'.repeat(n - Math.floor(n / 2));
  expect(characterCount(value)).toBe(n);
  return value;
}
/** An e-mail address of exactly `n` characters. */
function emailOf(n: number): string {
  const domain = '@example.com';
  return textOf(n - domain.length) + domain;
}
/** An order-form phone number, extension included, of exactly `n` characters. */
function orderPhoneOf(n: number): string {
  const base = '(312) 555-0101 x';
  return base + '1'.repeat(n - base.length);
}

interface Bound {
  field: string;
  max: number;
  /** A valid value of `n` characters; absent when the field's format keeps it far below its bound. */
  make?: (n: number) => string;
}

const names = (...fields: string[]) => fields.map((field) => ({ field, make: textOf }));

const registration = {
  email: 'ada@example.com',
  firstname: 'Ada',
  lastname: 'Lovelace',
  company: 'Analytical Engines',
  phone: '(555) 123-4567',
  password: 'Difference Engine 1843',
  confirmPassword: 'Difference Engine 1843',
};
const accountBounds: Bound[] = [
  { field: 'email', max: EMAIL_MAX, make: emailOf },
  ...names('firstname', 'lastname').map((b) => ({ ...b, max: NAME_MAX })),
  { field: 'company', max: COMPANY_MAX, make: textOf },
  { field: 'phone', max: PHONE_MAX },
];

const contact = {
  firstname: 'Dana',
  lastname: 'Okafor',
  email: 'dana@example.com',
  phone: '(312) 555-0199',
  company: 'Lakeshore',
  title: 'Director',
  message: 'Two LED walls, please.',
};
const contactBounds: Bound[] = [
  ...names('firstname', 'lastname').map((b) => ({ ...b, max: NAME_MAX })),
  { field: 'email', max: EMAIL_MAX, make: emailOf },
  { field: 'phone', max: PHONE_MAX },
  { field: 'company', max: COMPANY_MAX, make: textOf },
  { field: 'title', max: TITLE_MAX, make: textOf },
  { field: 'subject', max: NAME_LONG_MAX, make: textOf },
];

const customer = {
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
  onsitePhone: '617-555-0100',
  booth: '42A',
  room: '',
  deliveryDate: '2024-01-05',
  deliveryTime: '8:00 AM',
  pickupDate: '2024-01-07',
  pickupTime: '5:00 PM',
};
const customerBounds: Bound[] = [
  { field: 'company', max: COMPANY_MAX, make: textOf },
  ...names('firstName', 'lastName', 'onsiteFirstName', 'onsiteLastName').map((b) => ({
    ...b,
    max: NAME_MAX,
  })),
  { field: 'email', max: EMAIL_MAX, make: emailOf },
  { field: 'onsiteEmail', max: EMAIL_MAX, make: emailOf },
  { field: 'phone', max: PHONE_MAX, make: orderPhoneOf },
  { field: 'onsitePhone', max: PHONE_MAX, make: orderPhoneOf },
  { field: 'address', max: ADDRESS_MAX, make: textOf },
  ...names('city', 'state', 'zip', 'booth', 'room').map((b) => ({ ...b, max: SHORT_TEXT_MAX })),
];

const store = {
  name: 'Demo Expo',
  store_id: 'demo-expo',
  image: 'expo.png',
  deadline: '2024-01-01',
  start_date: '2024-01-05',
  end_date: '2024-01-07',
  bcc: 'a@example.com',
  email_text: 'See you there!',
  store_text: 'Booth deliveries start at 8.',
};
const storeBounds: Bound[] = [
  { field: 'name', max: NAME_LONG_MAX, make: textOf },
  { field: 'image', max: NAME_LONG_MAX, make: textOf },
  { field: 'bcc', max: LONG_TEXT_MAX },
  { field: 'email_text', max: LONG_TEXT_MAX, make: textOf },
  { field: 'store_text', max: LONG_TEXT_MAX, make: textOf },
];

const files = [{ name: 'keynote.mp4', size: 1_000, type: 'video/mp4' }];
const creative = { form_type: 'creative', files, project_name: 'Launch', description: '' };
const event = {
  form_type: 'event',
  files,
  event_name: 'Expo',
  date: '2027-03-01',
  hour: 9,
  minute: 30,
  ampm: 'AM',
  speaker_name: 'Ada',
  room_no: '',
  description: '',
};
const sponsor = { form_type: 'sponsor', files, event_name: 'Expo', sponsor_company: 'Acme', description: '' };
const uploadBounds = (...fields: string[]): Bound[] => [
  ...names(...fields).map((b) => ({ ...b, max: NAME_LONG_MAX })),
  { field: 'description', max: UPLOAD_DESCRIPTION_MAX, make: textOf },
];
const withoutFiles = <T extends { files: unknown }>({ files: _files, ...rest }: T) => rest;

const FORMS: [string, z.ZodType, Record<string, unknown>, Bound[]][] = [
  ['registration', registrationSchema({ mode: 'create' }), registration, accountBounds],
  [
    'account update',
    registrationSchema({ mode: 'update', currentEmail: registration.email }),
    { ...registration, password: '', confirmPassword: '' },
    accountBounds.filter((b) => b.field !== 'email'),
  ],
  ['sign-in', loginFormSchema, { email: 'ada@example.com', password: 'x' }, [accountBounds[0]!]],
  ['forgot password', forgotPasswordSchema, { email: 'ada@example.com' }, [accountBounds[0]!]],
  ['contact', contactFormSchema, contact, contactBounds],
  ['newsletter', newsletterFormSchema, { ...contact, message: '' }, contactBounds],
  ['checkout', orderCustomerInfoSchema, customer, customerBounds],
  ['staff store', storeFormSchema, store, storeBounds],
  ['creative upload', creativeUploadFormSchema, creative, uploadBounds('project_name')],
  ['event upload', eventUploadFormSchema, event, uploadBounds('event_name', 'speaker_name', 'room_no')],
  ['sponsor upload', sponsorUploadFormSchema, sponsor, uploadBounds('event_name', 'sponsor_company')],
  [
    'upload submission (protocol)',
    submissionFieldsSchema,
    withoutFiles(sponsor),
    uploadBounds('event_name', 'sponsor_company'),
  ],
];

describe.each(FORMS)(
  'the %s form: every text bounded by its column, none with NUL',
  (_name, schema, valid, bounds) => {
    it('accepts the valid form', () => {
      expect(errorsOf(schema, valid)).toEqual({});
    });

    it.each(bounds)('$field: refuses NUL', ({ field }) => {
      expect(errorsOf(schema, { ...valid, [field]: 'a\u0000b' })).toEqual({ [field]: TEXT_HAS_NUL });
    });

    it.each(bounds)('$field: at most $max characters', ({ field, max, make }) => {
      if (make) expect(errorsOf(schema, { ...valid, [field]: make(max) })).toEqual({});
      const over = make ? make(max + 1) : 'x'.repeat(max + 1);
      expect(errorsOf(schema, { ...valid, [field]: over })).toEqual({ [field]: tooManyCharacters(max) });
    });
  },
);

describe('texts whose format is their bound', () => {
  it('a date or a time with a NUL is not a date or a time', () => {
    expect(errorsOf(orderCustomerInfoSchema, { ...customer, deliveryDate: '2024-01-05\u0000' })).toEqual({
      deliveryDate: 'Please enter a valid date.',
    });
    expect(errorsOf(orderCustomerInfoSchema, { ...customer, pickupTime: '5:00 PM\u0000' })).toEqual({
      pickupTime: 'Invalid Time Format (h:mm A)',
    });
  });

  it('counts an e-mail address as the accounts table stores it: lowercased', () => {
    // 'İ' lowercases to two characters, so 253 of them with '@x.io' would no longer fit once stored.
    const local = 'İ'.repeat(EMAIL_MAX - '@x.io'.length);
    expect(errorsOf(forgotPasswordSchema, { email: `${local}@x.io` })).toEqual({
      email: tooManyCharacters(EMAIL_MAX),
    });
  });

  it('a password longer than any account can have is refused before hashing', () => {
    expect(errorsOf(loginFormSchema, { email: 'ada@example.com', password: 'x'.repeat(129) })).toEqual({
      password: PASSWORD_TOO_LONG,
    });
    const schema = registrationSchema({ mode: 'create' });
    const withNul = 'Difference\u0000Engine';
    expect(errorsOf(schema, { ...registration, password: withNul, confirmPassword: withNul })).toEqual({
      password: TEXT_HAS_NUL,
    });
  });

  it('the legacy upload submission and a file registration are bounded too', () => {
    expect(
      errorsOf(uploadSubmissionSchema, {
        form_type: 'creative',
        action: 'init',
        project_name: 'x'.repeat(NAME_LONG_MAX + 1),
      }),
    ).toEqual({ project_name: tooManyCharacters(NAME_LONG_MAX) });
    expect(errorsOf(uploadFileRegistrationSchema, { name: 'a.mov', size: 1, type: 'video/\u0000' })).toEqual({
      type: TEXT_HAS_NUL,
    });
  });
});

describe('characterCount', () => {
  it('counts code points, as people and PostgreSQL do', () => {
    expect(characterCount('')).toBe(0);
    expect(characterCount('abc')).toBe(3);
    expect(characterCount('𝒜𝒜')).toBe(2);
  });
});
