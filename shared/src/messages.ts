/**
 * User-facing texts. Those quoted in SPEC.md are copied character for character, including the spec's
 * own spelling ('Occured') and punctuation, because tests and users compare them literally. Texts the
 * spec does not give (marked 'not in SPEC') are ours and may be reworded freely.
 */
import { EARLY_BIRD_DISCOUNT_PERCENT } from './constants.js';

// SPEC §5 'Contact form'
export const CONTACT_FIRST_NAME_REQUIRED = 'Must enter a first name.';
export const CONTACT_LAST_NAME_REQUIRED = 'Must enter a last name.';
export const CONTACT_INVALID_EMAIL = 'Invalid email address.';
export const CONTACT_INVALID_PHONE = 'Invalid phone number.';
export const CONTACT_MESSAGE_TOO_LONG = 'Please supply a message no larger than 300 characters.';
// SPEC §3 'Contact message': the newsletter subject is given; the inquiry subject is not (not in SPEC).
export const NEWSLETTER_SUBJECT = 'User Signed Up For Hot Trends Newsletter';
export const CONTACT_SUBJECT = 'Website Inquiry';

// SPEC §5 'Login', 'Forgot password'; §8
export const LOGIN_EMAIL_REQUIRED = 'Please enter your email address.';
export const LOGIN_PASSWORD_REQUIRED = 'Please enter your password (case sensitive).';
export const FORGOT_PASSWORD_EMAIL_REQUIRED = LOGIN_EMAIL_REQUIRED;
export const LOGIN_FAILED =
  'Your email or your password did not match our records, please re-enter your login credentials.';

// SPEC §5 'Registration'; §8
export const REGISTRATION_INVALID_EMAIL = 'Please enter a valid email address.';
export const REGISTRATION_FIRST_NAME_REQUIRED = 'Please enter a firstname.';
export const REGISTRATION_LAST_NAME_REQUIRED = 'Please enter a lastname.';
export const REGISTRATION_COMPANY_REQUIRED = 'Please enter a company.';
export const REGISTRATION_INVALID_PHONE = 'Please enter a valid phone number: (xxx)-xxx-xxxx';
export const PASSWORDS_MUST_MATCH = 'Passwords must match.';
export const EMAIL_ALREADY_EXISTS = 'This email already exists. Forgot Password?';

// SPEC §5 'Form widget rules': password hints
export const PASSWORD_HINT_UPPERCASE = 'This field requires at least one uppercase value.';
export const PASSWORD_HINT_SYMBOL = 'A symbol is required.';
/** The spec writes 'character(s)' literally, whatever N is. */
export function moreCharactersRequired(count: number): string {
  return `You are required to add ${count} more character(s) to this field.`;
}
/** not in SPEC: the policy's upper bound (PASSWORD_MAX) has no text of its own there. */
export const PASSWORD_TOO_LONG = 'Please use no more than 128 characters.';
// not in SPEC: the account update form asks for the current password before a new e-mail or password.
export const CURRENT_PASSWORD_REQUIRED =
  'Please enter your current password to change your email or password.';
export const CURRENT_PASSWORD_WRONG = 'Your current password did not match our records.';

// not in SPEC: the bound every stored text has (the spec words only the contact message's), and the one
// character no text may carry (PostgreSQL refuses U+0000 in text).
export function tooManyCharacters(max: number): string {
  return `Please use at most ${max} characters.`;
}
export const TEXT_HAS_NUL = 'This field contains an invisible character (NUL) that cannot be saved.';

// SPEC §5 'Upload'; §8
export const UPLOAD_FILE_REQUIRED = 'Please Add a File.';
export const UPLOAD_CHUNK_FAILED = 'Internal Error Occured. Please Retry Your Form Submission.';
export const SESSION_EXPIRED = 'The session has expired, please relogin and try again.';
export const CLOUD_PICK_FAILED = 'Unable to Save File. Please Try Again or Contact For Help';
// not in SPEC: the upload forms' required-field texts.
export const PROJECT_NAME_REQUIRED = 'Please enter a project name.';
export const EVENT_NAME_REQUIRED = 'Please enter an event name.';
export const SESSION_DATE_REQUIRED = 'Please choose a date.';
export const SESSION_HOUR_REQUIRED = 'Please choose an hour.';
export const SESSION_MINUTE_REQUIRED = 'Please choose the minutes.';
export const SESSION_AMPM_REQUIRED = 'Please choose AM or PM.';
export const SPEAKER_NAME_REQUIRED = 'Please enter a speaker name.';
export const SPONSOR_COMPANY_REQUIRED = 'Please enter a sponsor company.';

// SPEC §5 'Checkout', §2 'Exhibitor order pages'; §8
export const FIELD_REQUIRED = 'This field is required.';
export const CHECKOUT_INVALID_EMAIL = 'Please enter a valid email address.';
export const CHECKOUT_INVALID_PHONE = 'Please enter a valid phone number.';
export const CHECKOUT_INCOMPLETE =
  'Please fill out all required fields, and make sure all data is valid before continuing on to checkout.';
export const STORE_CLOSED_NOTICE = 'This store is currently closed.';
export const STORE_CLOSED_TRANSACTION = 'Store is closed, you cannot proceed with your transaction.';
export const CART_EMPTY = 'There are no items in your cart.';
export const PAYMENT_SERVER_ERROR = 'Server error, please try again later.';
/** SPEC §8: the provider's text follows after a single space, with nothing added. */
export function paymentFailed(providerMessage: string): string {
  return `Payment failed ${providerMessage}`;
}
// not in SPEC: the spec only says these controls stay disabled.
export const TERMS_REQUIRED = 'Please accept the rental terms.';
export const QUANTITY_INVALID = 'Please choose a quantity from 1 to 25.';
export const CART_COUNT_INVALID = 'Please choose a quantity from 0 to 25.';
export const INVALID_DATE = 'Please enter a valid date.';
export const NOTHING_FOR_SALE = 'Nothing is for sale in this store yet. Please check back soon.';
/** The early-bird offer with its last day, already formatted for display (MMM D, YYYY). */
export function earlyBirdUntil(deadline: string): string {
  return `Order by ${deadline} for the ${EARLY_BIRD_DISCOUNT_PERCENT}% early-bird discount.`;
}

// SPEC §2 / §8 'Sorry, Page Not Found.' and the code-splitting failure
export const PAGE_NOT_FOUND = 'Sorry, Page Not Found.';
export function loadingChunkFailed(chunkId: string | number): string {
  return `Loading chunk ${chunkId} failed`;
}

// SPEC §5 'Form widget rules': date and time entry
export const INVALID_DATE_FORMAT = 'Invalid Date Format (M/D/YYYY)';
export const INVALID_TIME_FORMAT_12H_MERIDIEM = 'Invalid Time Format (h:mm A)';
export const INVALID_TIME_FORMAT_12H = 'Invalid Time Format (hh:mm)';
export const INVALID_TIME_FORMAT_24H = 'Invalid Time Format (HH:mm)';
/** `date` is shown as given: callers pass it already formatted for display. */
export function dateMustBeAfter(date: string): string {
  return `Date must be after ${date}`;
}
export function dateMustBeBefore(date: string): string {
  return `Date must be before ${date}`;
}

// SPEC §2 'Admin page': staff store screen
export const STORE_DELETE_CONFIRM =
  'Are you sure you want to delete the currently selected store, this action cannot be undone.';
export const STORE_LIST_ACTIVE_TITLE = 'Manage Active Online A/V Stores';
export const STORE_LIST_ARCHIVED_TITLE = 'Archived Online A/V Stores';
export const SHOW_ACTIVE = 'Show Active';
export function viewArchived(count: number): string {
  return `View Archived (${count})`;
}
export function loggedInAs(firstname: string, lastname: string): string {
  return `Logged in as ${firstname} ${lastname}`;
}
export function storeOrderFormTitle(storeName: string): string {
  return `${storeName} Order Form`;
}
// not in SPEC: the staff store form's own texts.
export const STORE_NAME_REQUIRED = 'Please enter a store name.';
export const STORE_ID_INVALID = 'Use lowercase letters, digits and dashes.';
export const STORE_IMAGE_INVALID = 'Use a file name without slashes.';
/** The store form's Image names a file that is not among the store images. */
export function storeImageUnknown(name: string): string {
  return `There is no store image called ${name}. Upload it, or choose one of the store images.`;
}
export const STORE_END_BEFORE_START = 'The end date must be on or after the start date.';
export const STORE_CUTOFF_BEFORE_DEADLINE = 'The order cut-off must be on or after the deadline.';
/** Names the offending entry of the BCC list, so staff can find it in a long list. */
export function invalidEmailAddress(value: string): string {
  return `Invalid email address: ${value}`;
}

// SPEC §2, §5, §9: labels quoted in the spec
export const GO_TO_PAYMENT = 'Go To Payment';
export const ONSITE_SAME_AS_PURCHASER = 'Onsite contact is the same as the purchaser';
export const GETTING_SOCIAL = 'Getting Social';
export const UNLIMITED_MAX = 'Unlimited Max';
export const SUGGESTIONS_EMPTY = '-- empty --';
export const CONTINUE = 'Continue';

// not in SPEC: the server's answers when one of its services is briefly out of reach (issue 28).
export const SERVICE_BRIEFLY_UNAVAILABLE =
  'The service is briefly unavailable. Please try again in a few seconds; nothing you sent has been lost.';
export const UPLOAD_STORAGE_FULL =
  'The server has no room for this upload right now. Please try again later; the parts already sent are kept.';
