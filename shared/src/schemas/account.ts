/**
 * Client and staff accounts: SPEC §3 'Client user' and 'Admin user info', §5 'Login', 'Registration',
 * 'Forgot password', and the password policy behind the §5 password hints.
 */
import { z } from 'zod';
import { COMPANY_MAX, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, PHONE_MAX } from '../constants.js';
import {
  CURRENT_PASSWORD_REQUIRED,
  FORGOT_PASSWORD_EMAIL_REQUIRED,
  LOGIN_EMAIL_REQUIRED,
  LOGIN_PASSWORD_REQUIRED,
  moreCharactersRequired,
  PASSWORD_HINT_SYMBOL,
  PASSWORD_HINT_UPPERCASE,
  PASSWORD_TOO_LONG,
  PASSWORDS_MUST_MATCH,
  REGISTRATION_COMPANY_REQUIRED,
  REGISTRATION_FIRST_NAME_REQUIRED,
  REGISTRATION_INVALID_EMAIL,
  REGISTRATION_INVALID_PHONE,
  REGISTRATION_LAST_NAME_REQUIRED,
  TEXT_HAS_NUL,
} from '../messages.js';
import { isValidEmail } from '../validation/email.js';
import { isValidPhone } from '../validation/phone.js';
import {
  bounded,
  characterCount,
  containsNul,
  emailText,
  idSchema,
  requiredText,
  whenStrings,
} from './common.js';

/** A client's profile. The password is not part of it: it only ever travels towards the server. */
export const clientUserSchema = z.object({
  userid: idSchema,
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  company: z.string(),
  phone: z.string(),
});
export type ClientUser = z.infer<typeof clientUserSchema>;

/** What the staff screen shows as 'Logged in as First Last'. */
export const adminUserInfoSchema = z.object({
  firstname: z.string(),
  lastname: z.string(),
});
export type AdminUserInfo = z.infer<typeof adminUserInfoSchema>;

/** An address to sign in with: whatever is typed, as long as an account could have it. */
const accountEmail = (message: string) => emailText(message, (value) => value !== '');

/**
 * A password as typed, never trimmed: every character the user typed is part of the secret. No account has
 * one longer than the policy allows, so a longer one is refused before any hashing.
 */
const typedPassword = (message: string) =>
  z
    .string({ error: message })
    .min(1, message)
    .refine((value) => characterCount(value) <= PASSWORD_MAX, PASSWORD_TOO_LONG);

export const loginFormSchema = z.object({
  email: accountEmail(LOGIN_EMAIL_REQUIRED),
  password: typedPassword(LOGIN_PASSWORD_REQUIRED),
});
export type LoginForm = z.infer<typeof loginFormSchema>;

export const forgotPasswordSchema = z.object({
  email: accountEmail(FORGOT_PASSWORD_EMAIL_REQUIRED),
});
export type ForgotPasswordForm = z.infer<typeof forgotPasswordSchema>;

/**
 * The enforced policy: PASSWORD_MIN to PASSWORD_MAX characters, none of them NUL (no keyboard types it).
 * The upper bound keeps hashing cheap for the server. Returns the message to show, or undefined when the
 * password is acceptable.
 */
export function passwordPolicyError(password: string): string | undefined {
  const count = characterCount(password);
  if (count < PASSWORD_MIN) return moreCharactersRequired(PASSWORD_MIN - count);
  if (count > PASSWORD_MAX) return PASSWORD_TOO_LONG;
  if (containsNul(password)) return TEXT_HAS_NUL;
  return undefined;
}

export const passwordPolicySchema = z.string().superRefine((password, ctx) => {
  const message = passwordPolicyError(password);
  if (message) ctx.addIssue({ code: 'custom', message });
});

/**
 * The hints the password widget shows while typing (SPEC §5 'Form widget rules'), in the spec's order.
 * Uppercase and symbol are advice, not requirements: only the length is enforced by the policy.
 */
export function passwordHints(password: string): string[] {
  const hints: string[] = [];
  if (!/\p{Lu}/u.test(password)) hints.push(PASSWORD_HINT_UPPERCASE);
  const count = characterCount(password);
  if (count < PASSWORD_MIN) hints.push(moreCharactersRequired(PASSWORD_MIN - count));
  if (!/[^\p{L}\p{N}\s]/u.test(password)) hints.push(PASSWORD_HINT_SYMBOL);
  return hints;
}

export type RegistrationMode = 'create' | 'update';

export interface RegistrationOptions {
  mode: RegistrationMode;
  /**
   * Update mode: the account's e-mail as stored. A different one in the form is a change of e-mail, which,
   * like a new password, needs the current password; unknown, every update counts as one.
   */
  currentEmail?: string | undefined;
}

function sameEmail(a: string, b: string | undefined): boolean {
  return b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * Registration ('create') and the account update form ('update'). In update mode an empty password with
 * an empty confirmation means 'keep the current password'; the parsed value then still carries the two
 * empty strings, which is how the API recognises it. A new e-mail or password also needs `currentPassword`
 * (checked against the account by the API).
 */
export function registrationSchema({ mode, currentEmail }: RegistrationOptions) {
  return z
    .object({
      email: emailText(REGISTRATION_INVALID_EMAIL, isValidEmail),
      firstname: requiredText(REGISTRATION_FIRST_NAME_REQUIRED, NAME_MAX),
      lastname: requiredText(REGISTRATION_LAST_NAME_REQUIRED, NAME_MAX),
      company: requiredText(REGISTRATION_COMPANY_REQUIRED, COMPANY_MAX),
      phone: bounded(z.string({ error: REGISTRATION_INVALID_PHONE }).trim(), PHONE_MAX).refine(
        isValidPhone,
        REGISTRATION_INVALID_PHONE,
      ),
      password: z.string().default(''),
      confirmPassword: z.string().default(''),
      currentPassword: z
        .string()
        .refine((value) => characterCount(value) <= PASSWORD_MAX, PASSWORD_TOO_LONG)
        .optional(),
    })
    .superRefine(
      ({ password, confirmPassword }, ctx) => {
        if (mode === 'update' && password === '' && confirmPassword === '') return;
        if (password === '' || password !== confirmPassword) {
          ctx.addIssue({ code: 'custom', message: PASSWORDS_MUST_MATCH, path: ['confirmPassword'] });
          return;
        }
        const policy = passwordPolicyError(password);
        if (policy) ctx.addIssue({ code: 'custom', message: policy, path: ['password'] });
      },
      whenStrings('password', 'confirmPassword'),
    )
    .superRefine(
      ({ email, password, confirmPassword, currentPassword = '' }, ctx) => {
        if (mode !== 'update' || currentPassword !== '') return;
        if (password !== '' || confirmPassword !== '' || !sameEmail(email, currentEmail)) {
          ctx.addIssue({ code: 'custom', message: CURRENT_PASSWORD_REQUIRED, path: ['currentPassword'] });
        }
      },
      whenStrings('email', 'password', 'confirmPassword'),
    );
}

export type RegistrationForm = z.infer<ReturnType<typeof registrationSchema>>;
export type RegistrationFormInput = z.input<ReturnType<typeof registrationSchema>>;
