import { describe, expect, it } from 'vitest';
import * as constants from './constants.js';

describe('SPEC §9 Business constants and limits', () => {
  it.each([
    ['SESSION_MAX_SECONDS', 86_400],
    ['MARKETING_SESSION_CHECK_MS', 10_000],
    ['PORTAL_SESSION_CHECK_MS', 30_000],
    ['UPLOAD_PART_SIZE', 6_291_456],
    ['S3_MAX_PARTS', 10_000],
    ['MIB', 1_048_576],
    ['EARLY_BIRD_DISCOUNT_PERCENT', 20],
    ['SERVICE_FEE_PERCENT', 24],
    ['DEFAULT_CURRENCY', 'usd'],
    ['QUANTITY_MIN', 1],
    ['QUANTITY_MAX', 25],
    ['QUANTITY_DEFAULT', 1],
    ['CONTACT_MESSAGE_MAX', 300],
    ['PHONE_DIGITS_MIN', 10],
    ['PHONE_DIGITS_MAX', 11],
    ['STORE_SEARCH_MIN_EXCLUSIVE', 2],
    ['PASSWORD_MIN', 8],
    ['PASSWORD_MAX', 128],
    ['EMAIL_MAX', 254],
    ['NAME_MAX', 100],
    ['COMPANY_MAX', 200],
    ['TITLE_MAX', 200],
    ['PHONE_MAX', 40],
    ['ADDRESS_MAX', 200],
    ['SHORT_TEXT_MAX', 100],
    ['NAME_LONG_MAX', 255],
    ['LONG_TEXT_MAX', 5_000],
    ['UPLOAD_DESCRIPTION_MAX', 10_000],
    ['FILE_NAME_DISPLAY_MAX', 24],
    ['HOT_TRENDS_ARCHIVE_COUNT', 10],
    ['DATE_DISPLAY_FORMAT', 'MMM D, YYYY'],
    ['DATE_INPUT_FORMAT', 'M/D/YYYY'],
    ['DATE_ONLY_FORMAT', 'YYYY-MM-DD'],
    ['SESSION_DATETIME_FORMAT', 'YYYY-MM-DD HH:mm:ss'],
    ['CONTACT_CONFIRMATION_FADE_MS', 3_000],
    ['CONTACT_CLEAR_MS', 3_000],
    ['FORGOT_PASSWORD_CLOSE_MS', 4_000],
    ['CHUNK_LOAD_TIMEOUT_MS', 120_000],
    ['DATE_ERROR_CLEAR_MS', 2_500],
    ['PASSWORD_HINT_DELAY_MS', 1_200],
    ['DEFAULT_DELIVERY_TIME', '8:00 AM'],
    ['UPLOAD_HOUR_MIN', 1],
    ['UPLOAD_HOUR_MAX', 12],
    ['UPLOAD_MINUTE_STEP', 5],
    ['UPLOAD_MINUTE_MAX', 55],
    ['UPLOAD_DATE_YEARS_AHEAD', 2],
    ['DEFAULT_TZ_STORE', 'America/New_York'],
  ] as const)('%s is %s', (name, value) => {
    expect(constants[name]).toBe(value);
  });

  it('the upload part size is exactly 6 MiB', () => {
    expect(constants.UPLOAD_PART_SIZE).toBe(6 * constants.MIB);
  });

  it('covers every exported constant in the table above', () => {
    expect(Object.keys(constants)).toHaveLength(47);
  });
});
