import { z } from 'zod';
import { CONTROL_CHARACTER_MESSAGES, hasLineControl, isWellFormedText, oneLine } from './strict-input';

/** Minimum password length (docs/reference/01-authoring.md §9). */
export const MIN_PASSWORD_LENGTH = 6;

/**
 * The registration rules of docs/reference/01-authoring.md §5, keyed by a stable code. The English texts are the spec's
 * messages: the server answers with them, and the web app translates by code.
 */
export const REGISTRATION_ERRORS = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email',
  passwordRequired: 'Password is required',
  passwordTooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters`,
  passwordsDoNotMatch: 'Passwords do not match',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  // docs/design.md §11: names and emails are one line of text.
  controlCharacters: 'This field cannot contain control characters or line breaks',
  // docs/adr/0018-safe-defaults-and-lockout.md: an address that looks like another's is not a new account.
  emailInvisibleCharacters:
    'Email cannot contain invisible characters (zero-width spaces or joiners, direction marks, byte order marks)',
  illFormedText: CONTROL_CHARACTER_MESSAGES.illFormed('This field'),
} as const;
export type RegistrationErrorCode = keyof typeof REGISTRATION_ERRORS;

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Judged in the form the address is kept in (NFKC), so a full-width "＠" is an "@". */
export function isEmailShaped(value: string): boolean {
  return EMAIL_SHAPE.test(value.normalize('NFKC').trim());
}

/**
 * Characters no one sees: controls (Cc), format characters (Cf: zero-width space U+200B, non-joiner
 * and joiner U+200C/U+200D, word joiner U+2060, byte order mark U+FEFF, direction marks and bidi
 * controls U+200E/U+200F, U+202A–U+202E, U+2066–U+2069, the soft hyphen…) and the other default-ignorable
 * code points (Hangul fillers, variation selectors). In an email they make an address that looks like
 * another's (docs/adr/0018-safe-defaults-and-lockout.md).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

export function hasInvisibleCharacter(value: string): boolean {
  return INVISIBLE.test(value);
}

/**
 * An email as it is kept and shown: trimmed, in Unicode normal form NFKC, so "ａｄａ@example.com"
 * (full-width) and "ﬁ" (a ligature) are the letters they look like. Case is kept for display.
 */
export function canonicalEmail(email: string): string {
  return email.normalize('NFKC').trim();
}

/**
 * The one key of an email for sign-up, sign-in, the lock-out and uniqueness: NFKC and lower case, so
 * two addresses that look alike are one account (docs/adr/0018-safe-defaults-and-lockout.md). NFKC is
 * taken again after lowering, as lowering can leave text that is not in normal form.
 */
export function normalizeEmail(email: string): string {
  return canonicalEmail(email).toLowerCase().normalize('NFKC');
}

/** The registration record (docs/reference/01-authoring.md §3); `username` is added on submit and equals `email`. */
export interface RegistrationInput {
  email: string;
  password: string;
  confirmPassword: string;
  firstName: string;
  lastName: string;
  company?: string | undefined;
  role?: string | undefined;
  username?: string | undefined;
}

export type RegistrationField = 'email' | 'password' | 'confirmPassword' | 'firstName' | 'lastName';
export type RegistrationErrors = Partial<Record<RegistrationField, RegistrationErrorCode>>;

/** Every registration rule at once, one error per field, in the spec's order. */
export function validateRegistration(input: Partial<RegistrationInput>): RegistrationErrors {
  const errors: RegistrationErrors = {};
  const email = (input.email ?? '').trim();
  const password = input.password ?? '';
  if (!email) errors.email = 'emailRequired';
  else if (hasLineControl(input.email ?? '')) errors.email = 'controlCharacters';
  else if (!isWellFormedText(email)) errors.email = 'illFormedText';
  else if (hasInvisibleCharacter(email)) errors.email = 'emailInvisibleCharacters';
  else if (!isEmailShaped(email)) errors.email = 'emailInvalid';
  if (!password) errors.password = 'passwordRequired';
  else if (password.length < MIN_PASSWORD_LENGTH) errors.password = 'passwordTooShort';
  if ((input.confirmPassword ?? '') !== password) errors.confirmPassword = 'passwordsDoNotMatch';
  if (!(input.firstName ?? '').trim()) errors.firstName = 'firstNameRequired';
  else if (hasLineControl(input.firstName ?? '')) errors.firstName = 'controlCharacters';
  else if (!isWellFormedText(input.firstName ?? '')) errors.firstName = 'illFormedText';
  if (!(input.lastName ?? '').trim()) errors.lastName = 'lastNameRequired';
  else if (hasLineControl(input.lastName ?? '')) errors.lastName = 'controlCharacters';
  else if (!isWellFormedText(input.lastName ?? '')) errors.lastName = 'illFormedText';
  return errors;
}

const optionalText = (label: string) => oneLine(label).max(200).optional();

/** POST /api/register body. The rules of validateRegistration are enforced with the spec's messages. */
export const RegistrationSchema = z
  .object({
    email: z.string().max(254),
    password: z.string().max(1024),
    confirmPassword: z.string().max(1024),
    firstName: z.string().max(100),
    lastName: z.string().max(100),
    company: optionalText('Company'),
    role: optionalText('Role'),
    username: z.string().max(254).optional(),
  })
  .superRefine((value, ctx) => {
    const errors = validateRegistration(value);
    for (const [field, code] of Object.entries(errors)) {
      ctx.addIssue({ code: 'custom', path: [field], message: REGISTRATION_ERRORS[code] });
    }
  });
export type Registration = z.infer<typeof RegistrationSchema>;

/** What sign-in answers (400) to a username with a character no one sees; no account has one. */
export const LOGIN_INVISIBLE_CHARACTERS =
  'Username cannot contain invisible characters (zero-width spaces or joiners, direction marks, byte order marks)';

/** POST /api/login body (docs/reference/01-authoring.md §3 "Login credentials"). */
export const LoginRequestSchema = z.object({
  username: oneLine('Username')
    .refine((value) => !hasInvisibleCharacter(value), LOGIN_INVISIBLE_CHARACTERS)
    .trim()
    .min(1, 'Please enter username and password')
    .max(254),
  password: z.string().min(1, 'Please enter username and password').max(1024),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

/** A user as the API shows it: never a password or a hash. */
export const UserSchema = z.object({
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  company: z.string(),
  role: z.string(),
});
export type User = z.infer<typeof UserSchema>;

export const LoginResponseSchema = z.object({
  token: z.string(),
  user: UserSchema,
  /** ISO time at which the token stops working. */
  expires_at: z.string(),
});
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

/** PUT /api/me body: the profile fields a user may change. */
export const ProfileUpdateSchema = z.object({
  firstName: oneLine('First name').trim().min(1, REGISTRATION_ERRORS.firstNameRequired).max(100),
  lastName: oneLine('Last name').trim().min(1, REGISTRATION_ERRORS.lastNameRequired).max(100),
  company: oneLine('Company').trim().max(200).default(''),
  role: oneLine('Role').trim().max(200).default(''),
});
export type ProfileUpdate = z.infer<typeof ProfileUpdateSchema>;

/** POST /api/me/password body. */
export const PasswordChangeSchema = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required').max(1024),
    newPassword: z
      .string()
      .min(1, REGISTRATION_ERRORS.passwordRequired)
      .min(MIN_PASSWORD_LENGTH, REGISTRATION_ERRORS.passwordTooShort)
      .max(1024),
    confirmPassword: z.string().max(1024),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ['confirmPassword'],
    message: REGISTRATION_ERRORS.passwordsDoNotMatch,
  });
export type PasswordChange = z.infer<typeof PasswordChangeSchema>;

/** What POST /api/register answers (403, code SIGN_UP_CLOSED) when SIGN_UP is off (docs/design.md §11). */
export const SIGN_UP_CLOSED_MESSAGE =
  'Sign-up is turned off on this server; ask its operator for an account.';

/**
 * GET /api/demo-credentials: what the sign-in page shows a stranger — the seeded demo account when it
 * is enabled, and whether anyone may create an account here (`sign_up`; absent from older servers,
 * read as open).
 */
export const DemoCredentialsSchema = z.object({
  enabled: z.boolean(),
  username: z.string().optional(),
  password: z.string().optional(),
  sign_up: z.boolean().optional(),
  /** Single sign-on (docs/adr/0033-single-sign-on.md): what its button names; absent when not set up. */
  sso: z.object({ name: z.string() }).optional(),
  /** false: accounts sign in only through single sign-on (PASSWORD_SIGN_IN=off); absent: true. */
  password_sign_in: z.boolean().optional(),
});
export type DemoCredentials = z.infer<typeof DemoCredentialsSchema>;

/** Single sign-on's sentences (docs/adr/0033-single-sign-on.md), said by the server and read by the sign-in page. */
export const SSO_MESSAGES = {
  passwordSignInOff: 'Password sign-in is turned off on this server: use single sign-on',
  notConfigured: 'Single sign-on is not set up on this server',
} as const;

/** Why a single sign-on signed no one in, as the callback names it to the sign-in page (`?sso_error=`). */
export const SSO_FAILURES = [
  'provider_unreachable',
  'expired',
  'refused_by_provider',
  'no_email',
  'email_not_verified',
  'no_account',
] as const;
export type SsoFailure = (typeof SSO_FAILURES)[number];

/** Every error answer of the API (docs/design.md §3): `detail` is what a person reads. */
export const ErrorResponseSchema = z.object({
  detail: z.string(),
  code: z.string().optional(),
  hint: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/** POST /api/register answer (201). */
export const RegisterResponseSchema = z.object({
  message: z.string(),
  user: UserSchema,
});
export type RegisterResponse = z.infer<typeof RegisterResponseSchema>;

/** GET /api/me and PUT /api/me answer: the signed-in user. */
export const CurrentUserResponseSchema = z.object({
  user: UserSchema,
});
export type CurrentUserResponse = z.infer<typeof CurrentUserResponseSchema>;
