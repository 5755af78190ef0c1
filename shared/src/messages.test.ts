import { describe, expect, it } from 'vitest';
import * as m from './messages.js';

describe('SPEC §5 and §8 user-facing messages, copied verbatim', () => {
  it.each([
    // §5 Contact form
    ['CONTACT_FIRST_NAME_REQUIRED', 'Must enter a first name.'],
    ['CONTACT_LAST_NAME_REQUIRED', 'Must enter a last name.'],
    ['CONTACT_INVALID_EMAIL', 'Invalid email address.'],
    ['CONTACT_INVALID_PHONE', 'Invalid phone number.'],
    ['CONTACT_MESSAGE_TOO_LONG', 'Please supply a message no larger than 300 characters.'],
    // §3 Contact message
    ['NEWSLETTER_SUBJECT', 'User Signed Up For Hot Trends Newsletter'],
    // §5 Login, Forgot password; §8
    ['LOGIN_EMAIL_REQUIRED', 'Please enter your email address.'],
    ['LOGIN_PASSWORD_REQUIRED', 'Please enter your password (case sensitive).'],
    ['FORGOT_PASSWORD_EMAIL_REQUIRED', 'Please enter your email address.'],
    [
      'LOGIN_FAILED',
      'Your email or your password did not match our records, please re-enter your login credentials.',
    ],
    // §5 Registration; §8
    ['REGISTRATION_INVALID_EMAIL', 'Please enter a valid email address.'],
    ['REGISTRATION_FIRST_NAME_REQUIRED', 'Please enter a firstname.'],
    ['REGISTRATION_LAST_NAME_REQUIRED', 'Please enter a lastname.'],
    ['REGISTRATION_COMPANY_REQUIRED', 'Please enter a company.'],
    ['REGISTRATION_INVALID_PHONE', 'Please enter a valid phone number: (xxx)-xxx-xxxx'],
    ['PASSWORDS_MUST_MATCH', 'Passwords must match.'],
    ['EMAIL_ALREADY_EXISTS', 'This email already exists. Forgot Password?'],
    // §5 Form widget rules
    ['PASSWORD_HINT_UPPERCASE', 'This field requires at least one uppercase value.'],
    ['PASSWORD_HINT_SYMBOL', 'A symbol is required.'],
    ['INVALID_DATE_FORMAT', 'Invalid Date Format (M/D/YYYY)'],
    ['INVALID_TIME_FORMAT_12H_MERIDIEM', 'Invalid Time Format (h:mm A)'],
    ['INVALID_TIME_FORMAT_12H', 'Invalid Time Format (hh:mm)'],
    ['INVALID_TIME_FORMAT_24H', 'Invalid Time Format (HH:mm)'],
    // §5 Upload; §8
    ['UPLOAD_FILE_REQUIRED', 'Please Add a File.'],
    ['UPLOAD_CHUNK_FAILED', 'Internal Error Occured. Please Retry Your Form Submission.'],
    ['SESSION_EXPIRED', 'The session has expired, please relogin and try again.'],
    ['CLOUD_PICK_FAILED', 'Unable to Save File. Please Try Again or Contact For Help'],
    // §5 Checkout, §2 Exhibitor order pages; §8
    ['CHECKOUT_INVALID_EMAIL', 'Please enter a valid email address.'],
    ['CHECKOUT_INVALID_PHONE', 'Please enter a valid phone number.'],
    [
      'CHECKOUT_INCOMPLETE',
      'Please fill out all required fields, and make sure all data is valid before continuing on to checkout.',
    ],
    ['STORE_CLOSED_NOTICE', 'This store is currently closed.'],
    ['STORE_CLOSED_TRANSACTION', 'Store is closed, you cannot proceed with your transaction.'],
    ['CART_EMPTY', 'There are no items in your cart.'],
    ['PAYMENT_SERVER_ERROR', 'Server error, please try again later.'],
    ['PAGE_NOT_FOUND', 'Sorry, Page Not Found.'],
    // §2 Admin page and labels quoted in the spec
    [
      'STORE_DELETE_CONFIRM',
      'Are you sure you want to delete the currently selected store, this action cannot be undone.',
    ],
    ['STORE_LIST_ACTIVE_TITLE', 'Manage Active Online A/V Stores'],
    ['STORE_LIST_ARCHIVED_TITLE', 'Archived Online A/V Stores'],
    ['SHOW_ACTIVE', 'Show Active'],
    ['GO_TO_PAYMENT', 'Go To Payment'],
    ['ONSITE_SAME_AS_PURCHASER', 'Onsite contact is the same as the purchaser'],
    ['GETTING_SOCIAL', 'Getting Social'],
    ['UNLIMITED_MAX', 'Unlimited Max'],
    ['SUGGESTIONS_EMPTY', '-- empty --'],
    ['CONTINUE', 'Continue'],
  ] as const)('%s', (name, text) => {
    expect(m[name]).toBe(text);
  });
});

describe('SPEC §8 and §5 parameterised messages', () => {
  it.each([
    [
      'paymentFailed',
      () => m.paymentFailed('Your card was declined.'),
      'Payment failed Your card was declined.',
    ],
    ['paymentFailed (empty provider text)', () => m.paymentFailed(''), 'Payment failed '],
    ['loadingChunkFailed (number)', () => m.loadingChunkFailed(7), 'Loading chunk 7 failed'],
    ['loadingChunkFailed (name)', () => m.loadingChunkFailed('store'), 'Loading chunk store failed'],
    ['dateMustBeAfter', () => m.dateMustBeAfter('Jan 4, 2024'), 'Date must be after Jan 4, 2024'],
    ['dateMustBeBefore', () => m.dateMustBeBefore('Jan 8, 2024'), 'Date must be before Jan 8, 2024'],
    [
      'moreCharactersRequired (1)',
      () => m.moreCharactersRequired(1),
      'You are required to add 1 more character(s) to this field.',
    ],
    [
      'moreCharactersRequired (5)',
      () => m.moreCharactersRequired(5),
      'You are required to add 5 more character(s) to this field.',
    ],
    ['viewArchived', () => m.viewArchived(3), 'View Archived (3)'],
    ['loggedInAs', () => m.loggedInAs('Ada', 'Lovelace'), 'Logged in as Ada Lovelace'],
    ['storeOrderFormTitle', () => m.storeOrderFormTitle('Demo Expo 2024'), 'Demo Expo 2024 Order Form'],
    ['invalidEmailAddress', () => m.invalidEmailAddress('bob@'), 'Invalid email address: bob@'],
  ] as const)('%s', (_name, make, text) => {
    expect(make()).toBe(text);
  });
});

describe('Texts the spec does not give (ours, stable)', () => {
  it.each([
    ['CONTACT_SUBJECT', 'Website Inquiry'],
    ['PASSWORD_TOO_LONG', 'Please use no more than 128 characters.'],
    ['PROJECT_NAME_REQUIRED', 'Please enter a project name.'],
    ['EVENT_NAME_REQUIRED', 'Please enter an event name.'],
    ['SESSION_DATE_REQUIRED', 'Please choose a date.'],
    ['SESSION_HOUR_REQUIRED', 'Please choose an hour.'],
    ['SESSION_MINUTE_REQUIRED', 'Please choose the minutes.'],
    ['SESSION_AMPM_REQUIRED', 'Please choose AM or PM.'],
    ['SPEAKER_NAME_REQUIRED', 'Please enter a speaker name.'],
    ['SPONSOR_COMPANY_REQUIRED', 'Please enter a sponsor company.'],
    ['FIELD_REQUIRED', 'This field is required.'],
    ['TERMS_REQUIRED', 'Please accept the rental terms.'],
    ['QUANTITY_INVALID', 'Please choose a quantity from 1 to 25.'],
    ['CART_COUNT_INVALID', 'Please choose a quantity from 0 to 25.'],
    ['INVALID_DATE', 'Please enter a valid date.'],
    ['STORE_NAME_REQUIRED', 'Please enter a store name.'],
    ['STORE_ID_INVALID', 'Use lowercase letters, digits and dashes.'],
    ['STORE_IMAGE_INVALID', 'Use a file name without slashes.'],
    ['STORE_END_BEFORE_START', 'The end date must be on or after the start date.'],
    ['STORE_CUTOFF_BEFORE_DEADLINE', 'The order cut-off must be on or after the deadline.'],
  ] as const)('%s', (name, text) => {
    expect(m[name]).toBe(text);
  });
});
