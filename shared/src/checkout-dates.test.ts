import { describe, expect, it } from 'vitest';
import { defaultSchedule, deliveryDateRange, isWithinRange, pickupDateRange } from './checkout-dates.js';

const event = { eventStart: '2024-01-05', eventEnd: '2024-01-07' };

describe('SPEC §5 Date constraints: delivery runs from the event start to the pickup date or event end', () => {
  it.each([
    [{}, { min: '2024-01-05', max: '2024-01-07' }],
    [{ pickupDate: undefined }, { min: '2024-01-05', max: '2024-01-07' }],
    [{ pickupDate: null }, { min: '2024-01-05', max: '2024-01-07' }],
    [{ pickupDate: '' }, { min: '2024-01-05', max: '2024-01-07' }],
    [{ pickupDate: '2024-01-06' }, { min: '2024-01-05', max: '2024-01-06' }],
  ])('%j -> %j', (extra, expected) => {
    expect(deliveryDateRange({ ...event, ...extra })).toEqual(expected);
  });
});

describe('SPEC §5 Date constraints: pickup runs from the delivery date or event start to the event end', () => {
  it.each([
    [{}, { min: '2024-01-05', max: '2024-01-07' }],
    [{ deliveryDate: null }, { min: '2024-01-05', max: '2024-01-07' }],
    [{ deliveryDate: '' }, { min: '2024-01-05', max: '2024-01-07' }],
    [{ deliveryDate: '2024-01-06' }, { min: '2024-01-06', max: '2024-01-07' }],
  ])('%j -> %j', (extra, expected) => {
    expect(pickupDateRange({ ...event, ...extra })).toEqual(expected);
  });
});

describe('isWithinRange (both ends inclusive)', () => {
  const range = { min: '2024-01-05', max: '2024-01-07' };
  it.each([
    ['2024-01-04', false],
    ['2024-01-05', true],
    ['2024-01-06', true],
    ['2024-01-07', true],
    ['2024-01-08', false],
    ['2023-12-31', false],
    ['2024-1-6', false],
    ['', false],
  ] as const)('%j -> %s', (date, expected) => {
    expect(isWithinRange(date, range)).toBe(expected);
  });
});

describe('SPEC §9 default schedule: delivery 8:00 AM on the start date, pickup on the end date', () => {
  it('fills delivery date and time and pickup date, leaving the pickup time open', () => {
    expect(defaultSchedule({ start_date: '2024-01-05', end_date: '2024-01-07' })).toEqual({
      deliveryDate: '2024-01-05',
      deliveryTime: '8:00 AM',
      pickupDate: '2024-01-07',
      pickupTime: '',
    });
  });
});
