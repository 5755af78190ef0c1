/**
 * Business constants and limits of SPEC §9 (and the few §2/§5 numbers the rules below depend on).
 * Every other module reads its numbers from here so that a change of policy is a one-line change.
 */

// Sessions (SPEC §4 'Authentication', §9)
export const SESSION_MAX_SECONDS = 86_400;
export const MARKETING_SESSION_CHECK_MS = 10_000;
export const PORTAL_SESSION_CHECK_MS = 30_000;

// Uploads (SPEC §4 'Upload', DESIGN 'Uploads'): parts are 6 MiB unless S3's part limit forces them larger.
export const UPLOAD_PART_SIZE = 6_291_456;
export const S3_MAX_PARTS = 10_000;
export const MIB = 1_048_576;

// Pricing (SPEC §9, DESIGN 'Pricing')
export const EARLY_BIRD_DISCOUNT_PERCENT = 20;
export const SERVICE_FEE_PERCENT = 24;
export const DEFAULT_CURRENCY = 'usd';

// Cart (SPEC §5 'Quantities')
export const QUANTITY_MIN = 1;
export const QUANTITY_MAX = 25;
export const QUANTITY_DEFAULT = 1;

// Forms (SPEC §5, §9)
export const CONTACT_MESSAGE_MAX = 300;
export const PHONE_DIGITS_MIN = 10;
export const PHONE_DIGITS_MAX = 11;
export const STORE_SEARCH_MIN_EXCLUSIVE = 2;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

// Text bounds, in characters. Each stored text is bounded by its column (api/src/db/migrations), so no value a
// form accepts is refused by the database; text kept in TEXT or JSON columns gets a bound of its own.
export const EMAIL_MAX = 254;
export const NAME_MAX = 100;
export const COMPANY_MAX = 200;
export const TITLE_MAX = 200;
export const PHONE_MAX = 40;
/** Checkout address fields (stored in the order's JSON). */
export const ADDRESS_MAX = 200;
/** City, state, zip, booth and room of the checkout form. */
export const SHORT_TEXT_MAX = 100;
/** Store and product names, store image file names, upload form names. */
export const NAME_LONG_MAX = 255;
/** Free text: the store's texts and BCC list, product descriptions. */
export const LONG_TEXT_MAX = 5_000;
/** An upload's description (kept with the submission's fields). */
export const UPLOAD_DESCRIPTION_MAX = 10_000;

// Display (SPEC §2, §9)
export const FILE_NAME_DISPLAY_MAX = 24;
export const HOT_TRENDS_ARCHIVE_COUNT = 10;
export const DATE_DISPLAY_FORMAT = 'MMM D, YYYY';
export const DATE_INPUT_FORMAT = 'M/D/YYYY';
/** The wire and storage format of every calendar date (deadline, event dates, delivery and pickup). */
export const DATE_ONLY_FORMAT = 'YYYY-MM-DD';
export const SESSION_DATETIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

// Timings (SPEC §4, §5, §9)
export const CONTACT_CONFIRMATION_FADE_MS = 3_000;
export const CONTACT_CLEAR_MS = 3_000;
export const FORGOT_PASSWORD_CLOSE_MS = 4_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const DATE_ERROR_CLEAR_MS = 2_500;
export const PASSWORD_HINT_DELAY_MS = 1_200;

// Checkout schedule (SPEC §9): delivery defaults to 8:00 AM on the store's start date.
export const DEFAULT_DELIVERY_TIME = '8:00 AM';

// Upload event form (SPEC §2 'Upload page flow'): hours 1 to 12, minutes in steps of 5.
export const UPLOAD_HOUR_MIN = 1;
export const UPLOAD_HOUR_MAX = 12;
export const UPLOAD_MINUTE_STEP = 5;
export const UPLOAD_MINUTE_MAX = 55;
/** The upload date picker runs from today to this many years ahead (SPEC §2). */
export const UPLOAD_DATE_YEARS_AHEAD = 2;

/** The zone store deadlines are read in when TZ_STORE is not set (DESIGN 'Operating contract'). */
export const DEFAULT_TZ_STORE = 'America/New_York';
