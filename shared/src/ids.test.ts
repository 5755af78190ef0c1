import { describe, expect, it } from 'vitest';
import { isUuid } from './ids.js';

describe('isUuid', () => {
  it.each([
    ['0f8fad5b-d9cb-469f-a165-70867728950e', true],
    ['0F8FAD5B-D9CB-469F-A165-70867728950E', true],
    ['0f8fad5bd9cb469fa16570867728950e', false],
    ['0f8fad5b-d9cb-469f-a165-70867728950', false],
    ['0f8fad5b-d9cb-469f-a165-70867728950e ', false],
    ['g f8fad5b-d9cb-469f-a165-70867728950e', false],
    ['', false],
    ['1', false],
  ])('%j: %s', (text, valid) => {
    expect(isUuid(text)).toBe(valid);
  });
});
