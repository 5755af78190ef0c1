import { describe, expect, it } from 'vitest';
import { isValidOrderPhone, isValidPhone } from './phone.js';

describe('SPEC §5 Phone (shared check)', () => {
  it.each([
    ['4155552671', 'ten digits'],
    ['14155552671', 'eleven digits'],
    ['(415) 555-2671', 'parenthesised area code and a space'],
    ['(415)555-2671', 'no space after the parenthesis'],
    ['(415)   555-2671', 'several spaces after the parenthesis'],
    ['415-555-2671', 'dashes'],
    ['(415)-555-2671', "the registration error's own form, (xxx)-xxx-xxxx"],
    [' 415-555-2671 ', 'surrounding whitespace is ignored'],
  ] as const)('accepts %j (%s)', (value, _why) => {
    expect(isValidPhone(value)).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['415555267', 'nine digits'],
    ['415555267112', 'twelve digits'],
    ['415.555.2671', 'dots'],
    ['415 555 2671', 'spaces as separators'],
    ['(415)--555-2671', 'two dashes after the parenthesis'],
    ['(415) -555-2671', 'a space and a dash after the parenthesis'],
    ['(415) 5552671', 'no dash before the last four'],
    ['415-5552671', 'missing second dash'],
    ['+14155552671', 'plus sign'],
    ['1-415-555-2671', 'country code with dashes'],
    ['(415) 555-2671 x12', 'extension'],
    ['41555526a1', 'letter'],
    ['(41) 555-2671', 'short area code'],
  ] as const)('rejects %j (%s)', (value, _why) => {
    expect(isValidPhone(value)).toBe(false);
  });
});

describe('SPEC §5 Phone on the order form (North American style)', () => {
  it.each([
    ['415-555-2671', '3-3-4 with dashes'],
    ['415.555.2671', 'dots'],
    ['415 555 2671', 'spaces'],
    ['4155552671', 'no separators'],
    ['415-555.2671', 'mixed separators'],
    ['(415) 555-2671', 'parenthesised area code and a space'],
    ['(415)555-2671', 'parenthesised area code, no space'],
    ['(415)-555-2671', 'parenthesised area code and a dash'],
    ['1 415 555 2671', 'country code 1 and a space'],
    ['1-415-555-2671', 'country code 1 and a dash'],
    ['1.415.555.2671', 'country code 1 and a dot'],
    ['+1 415-555-2671', 'plus, country code 1'],
    ['+1 (415) 555-2671', 'plus, country code, parenthesised area code'],
    ['+44 415 555 2671', 'two-digit country code'],
    ['+353 415 555 2671', 'three-digit country code'],
    ['415-555-2671 x123', 'extension after a space'],
    ['415-555-2671x12', 'extension without a space'],
    ['(415) 555-2671 x1', 'one-digit extension'],
    ['  415-555-2671  ', 'surrounding whitespace is ignored'],
  ] as const)('accepts %j (%s)', (value, _why) => {
    expect(isValidOrderPhone(value)).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['555-2671', 'no area code'],
    ['415-555-267', 'three digits at the end'],
    ['415-555-26711', 'five digits at the end'],
    ['41-555-2671', 'two-digit area code'],
    ['+14155552671', 'country code not followed by a separator'],
    ['+1234 415 555 2671', 'four-digit country code'],
    ['415--555-2671', 'two separators in a row'],
    ['415_555_2671', 'underscore separator'],
    ['415/555/2671', 'slash separator'],
    ['(415 555-2671', 'unclosed parenthesis'],
    ['415) 555-2671', 'unopened parenthesis'],
    ['415-555-2671 x', 'extension without digits'],
    ['415-555-2671 ext 12', "extension not introduced by 'x'"],
    ['415-555-2671 #12', "extension introduced by '#'"],
    ['415-555-2671 xab', 'letters in the extension'],
    ['four one five', 'words'],
  ] as const)('rejects %j (%s)', (value, _why) => {
    expect(isValidOrderPhone(value)).toBe(false);
  });
});
