import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dateOnly, fieldErrors, idSchema, numberInput, optionalText, requiredText } from './common.js';

describe('fieldErrors: field path to its first message (the API 400 answer and form errors)', () => {
  const schema = z.object({
    name: z.string().min(1, 'name first').min(2, 'name second'),
    items: z.array(z.object({ count: z.number().max(3, 'too many') })),
    nested: z.object({ deep: z.string('deep') }),
  });

  it('keys nested paths with dots and keeps only the first message per field', () => {
    const result = schema.safeParse({ name: '', items: [{ count: 1 }, { count: 9 }], nested: {} });
    expect(result.success).toBe(false);
    expect(fieldErrors(result.error!)).toEqual({
      name: 'name first',
      'items.1.count': 'too many',
      'nested.deep': 'deep',
    });
  });

  it("keys an error about the whole value with ''", () => {
    const result = z.string('not text').safeParse(5);
    expect(fieldErrors(result.error!)).toEqual({ '': 'not text' });
  });
});

describe('Schema building blocks', () => {
  it.each([
    ['  Ada  ', { success: true, data: 'Ada' }],
    ['', { success: false, message: 'REQ' }],
    ['   ', { success: false, message: 'REQ' }],
    [undefined, { success: false, message: 'REQ' }],
    [42, { success: false, message: 'REQ' }],
  ] as const)('requiredText(%j)', (input, expected) => {
    const result = requiredText('REQ', 10).safeParse(input);
    expect(result.success).toBe(expected.success);
    if (result.success) expect(result.data).toBe('data' in expected ? expected.data : undefined);
    else
      expect(result.error.issues.map((i) => i.message)).toEqual([
        'message' in expected ? expected.message : '',
      ]);
  });

  it.each([
    [undefined, ''],
    ['', ''],
    ['  x  ', 'x'],
  ] as const)('optionalText(%j) -> %j', (input, output) => {
    expect(optionalText(10).parse(input)).toBe(output);
  });

  it.each([
    ['2024-01-05', {}],
    ['', { '': 'This field is required.' }],
    ['2024-02-30', { '': 'Please enter a valid date.' }],
    ['1/5/2024', { '': 'Please enter a valid date.' }],
  ] as const)('dateOnly(%j) -> %j', (input, errors) => {
    const result = dateOnly().safeParse(input);
    expect(result.success ? {} : fieldErrors(result.error)).toEqual(errors);
  });

  it.each([
    [3, 3],
    ['3', 3],
    [' 12 ', 12],
    ['', 'absent'],
    ['  ', 'absent'],
    [undefined, 'absent'],
    ['x', 'invalid'],
  ] as const)('numberInput(%j) -> %j', (input, expected) => {
    const schema = numberInput(z.number('invalid').default(-1));
    const result = schema.safeParse(input);
    if (expected === 'absent') expect(result.data).toBe(-1);
    else if (expected === 'invalid') expect(result.error?.issues[0]?.message).toBe('invalid');
    else expect(result.data).toBe(expected);
  });

  it.each([
    [1, true],
    [0, false],
    [-1, false],
    [1.5, false],
    ['1', false],
  ] as const)('idSchema(%j) -> %s', (input, ok) => {
    expect(idSchema.safeParse(input).success).toBe(ok);
  });
});
