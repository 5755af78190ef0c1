/**
 * Client and staff accounts: SPEC §3 'Client user' and 'Admin user info', §5 'Login', 'Registration',
 * 'Forgot password', and the password policy behind the §5 password hints.
 */
import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '../constants.js';
import {
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
} from '../messages.js';
import { isValidEmail } from '../validation/email.js';
import { isValidPhone } from '../validation/phone.js';
import { idSchema, requiredText, whenStrings } from './common.js';

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

// Passwords are never trimmed: every character the user typed is part of the secret.
export const loginFormSchema = z.object({
  email: requiredText(LOGIN_EMAIL_REQUIRED),
  password: z.string({ error: LOGIN_PASSWORD_REQUIRED }).min(1, LOGIN_PASSWORD_REQUIRED),
});
export type LoginForm = z.infer<typeof loginFormSchema>;

export const forgotPasswordSchema = z.object({
  email: requiredText(FORGOT_PASSWORD_EMAIL_REQUIRED),
});
export type ForgotPasswordForm = z.infer<typeof forgotPasswordSchema>;

/** Length in characters as a person counts them (code points), not UTF-16 units. */
function characterCount(value: string): number {
  return Array.from(value).length;
}

/**
 * The enforced policy: PASSWORD_MIN to PASSWORD_MAX characters. The upper bound keeps hashing cheap for
 * the server. Returns the message to show, or undefined when the password is acceptable.
 */
export function passwordPolicyError(password: string): string | undefined {
  const count = characterCount(password);
  if (count < PASSWORD_MIN) return moreCharactersRequired(PASSWORD_MIN - count);
  if (count > PASSWORD_MAX) return PASSWORD_TOO_LONG;
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

/**
 * Registration ('create') and the account update form ('update'). In update mode an empty password with
 * an empty confirmation means 'keep the current password'; the parsed value then still carries the two
 * empty strings, which is how the API recognises it.
 */
export function registrationSchema({ mode }: { mode: RegistrationMode }) {
  return z
    .object({
      email: z
        .string({ error: REGISTRATION_INVALID_EMAIL })
        .trim()
        .refine(isValidEmail, REGISTRATION_INVALID_EMAIL),
      firstname: requiredText(REGISTRATION_FIRST_NAME_REQUIRED),
      lastname: requiredText(REGISTRATION_LAST_NAME_REQUIRED),
      company: requiredText(REGISTRATION_COMPANY_REQUIRED),
      phone: z
        .string({ error: REGISTRATION_INVALID_PHONE })
        .trim()
        .refine(isValidPhone, REGISTRATION_INVALID_PHONE),
      password: z.string().default(''),
      confirmPassword: z.string().default(''),
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
    );
}

export type RegistrationForm = z.infer<ReturnType<typeof registrationSchema>>;
export type RegistrationFormInput = z.input<ReturnType<typeof registrationSchema>>;
