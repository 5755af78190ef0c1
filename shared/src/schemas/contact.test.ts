import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { fieldErrors } from './common.js';
import {
  contactFormSchema,
  contactFormSchemaFor,
  contactMessageSchema,
  newsletterFormSchema,
} from './contact.js';

function errorsOf(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
}

const valid = {
  firstname: 'Ada',
  lastname: 'Lovelace',
  email: 'ada@example.com',
  phone: '(415) 555-2671',
  company: 'Analytical Engines',
  title: 'Countess',
  message: 'We need a stage and four cameras.',
};

describe('SPEC §5 Contact form', () => {
  it('accepts a complete message and fills subject and newsletter opt-in', () => {
    expect(contactFormSchema.parse(valid)).toEqual({
      ...valid,
      subject: 'Website Inquiry',
      hottrends: 'NO',
    });
  });

  it('trims every text field', () => {
    const parsed = contactFormSchema.parse({ ...valid, firstname: '  Ada ', email: ' ada@example.com ' });
    expect(parsed.firstname).toBe('Ada');
    expect(parsed.email).toBe('ada@example.com');
  });

  it('needs only names, e-mail and message; the rest defaults to empty', () => {
    expect(
      contactFormSchema.parse({ firstname: 'A', lastname: 'B', email: 'a@b.co', message: 'Hi' }),
    ).toEqual({
      firstname: 'A',
      lastname: 'B',
      email: 'a@b.co',
      phone: '',
      company: '',
      title: '',
      message: 'Hi',
      subject: 'Website Inquiry',
      hottrends: 'NO',
    });
  });

  it.each([
    ['missing first name', { firstname: undefined }, { firstname: 'Must enter a first name.' }],
    ['blank first name', { firstname: '  ' }, { firstname: 'Must enter a first name.' }],
    ['missing last name', { lastname: '' }, { lastname: 'Must enter a last name.' }],
    ['missing e-mail', { email: undefined }, { email: 'Invalid email address.' }],
    ['empty e-mail', { email: '' }, { email: 'Invalid email address.' }],
    ['bad e-mail', { email: 'ada@' }, { email: 'Invalid email address.' }],
    ['bad phone', { phone: '555-2671' }, { phone: 'Invalid phone number.' }],
    ['phone with dots (shared check)', { phone: '415.555.2671' }, { phone: 'Invalid phone number.' }],
    ['empty phone is fine', { phone: '' }, {}],
    ['ten-digit phone', { phone: '4155552671' }, {}],
    ['empty message', { message: '' }, { message: 'Please supply a message no larger than 300 characters.' }],
    [
      'blank message',
      { message: '   ' },
      { message: 'Please supply a message no larger than 300 characters.' },
    ],
    [
      'missing message',
      { message: undefined },
      { message: 'Please supply a message no larger than 300 characters.' },
    ],
    ['300 characters', { message: 'x'.repeat(300) }, {}],
    [
      '301 characters',
      { message: 'x'.repeat(301) },
      { message: 'Please supply a message no larger than 300 characters.' },
    ],
    ['300 characters plus padding', { message: `  ${'x'.repeat(300)}  ` }, {}],
    ['newsletter opt-in YES', { hottrends: 'YES' }, {}],
    [
      'hottrends other than YES/NO',
      { hottrends: 'yes' },
      { hottrends: 'Invalid option: expected one of "YES"|"NO"' },
    ],
  ] as const)('%s', (_name, change, errors) => {
    expect(errorsOf(contactFormSchema, { ...valid, ...change })).toEqual(errors);
  });

  it('reports every invalid field at once', () => {
    expect(errorsOf(contactFormSchema, {})).toEqual({
      firstname: 'Must enter a first name.',
      lastname: 'Must enter a last name.',
      email: 'Invalid email address.',
      message: 'Please supply a message no larger than 300 characters.',
    });
  });
});

describe('SPEC §2/§3 Contact form, newsletter variant (/hottrends): message hidden, newsletter subject', () => {
  const signUp = { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com' };

  it('needs no message and defaults subject and opt-in to the sign-up values', () => {
    expect(newsletterFormSchema.parse(signUp)).toEqual({
      ...signUp,
      phone: '',
      company: '',
      title: '',
      message: '',
      subject: 'User Signed Up For Hot Trends Newsletter',
      hottrends: 'YES',
    });
  });

  it.each([
    [
      'a message is still bounded',
      { message: 'x'.repeat(301) },
      { message: 'Please supply a message no larger than 300 characters.' },
    ],
    ['a short message is kept', { message: 'hello' }, {}],
    ['names still required', { firstname: '' }, { firstname: 'Must enter a first name.' }],
    ['e-mail still checked', { email: 'nope' }, { email: 'Invalid email address.' }],
  ] as const)('%s', (_name, change, errors) => {
    expect(errorsOf(newsletterFormSchema, { ...signUp, ...change })).toEqual(errors);
  });

  it('is what contactFormSchemaFor builds', () => {
    expect(contactFormSchemaFor('newsletter').parse(signUp)).toEqual(newsletterFormSchema.parse(signUp));
    expect(contactFormSchemaFor('contact').parse(valid)).toEqual(contactFormSchema.parse(valid));
  });
});

describe('SPEC §3 Contact message entity', () => {
  it('is the shape the form produces', () => {
    expect(contactMessageSchema.parse(contactFormSchema.parse(valid))).toEqual(
      contactFormSchema.parse(valid),
    );
  });

  it('requires hottrends to be YES or NO', () => {
    expect(
      contactMessageSchema.safeParse({ ...contactFormSchema.parse(valid), hottrends: 'MAYBE' }).success,
    ).toBe(false);
  });
});
