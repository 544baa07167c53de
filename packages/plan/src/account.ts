import { z } from 'zod';
import { hasLineControl, oneLine } from './strict-input';

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
} as const;
export type RegistrationErrorCode = keyof typeof REGISTRATION_ERRORS;

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailShaped(value: string): boolean {
  return EMAIL_SHAPE.test(value.trim());
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
  else if (!isEmailShaped(email)) errors.email = 'emailInvalid';
  if (!password) errors.password = 'passwordRequired';
  else if (password.length < MIN_PASSWORD_LENGTH) errors.password = 'passwordTooShort';
  if ((input.confirmPassword ?? '') !== password) errors.confirmPassword = 'passwordsDoNotMatch';
  if (!(input.firstName ?? '').trim()) errors.firstName = 'firstNameRequired';
  else if (hasLineControl(input.firstName ?? '')) errors.firstName = 'controlCharacters';
  if (!(input.lastName ?? '').trim()) errors.lastName = 'lastNameRequired';
  else if (hasLineControl(input.lastName ?? '')) errors.lastName = 'controlCharacters';
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

/** POST /api/login body (docs/reference/01-authoring.md §3 "Login credentials"). */
export const LoginRequestSchema = z.object({
  username: oneLine('Username').trim().min(1, 'Please enter username and password').max(254),
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
});
export type DemoCredentials = z.infer<typeof DemoCredentialsSchema>;

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
