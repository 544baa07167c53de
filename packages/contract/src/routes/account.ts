import {
  CurrentUserResponseSchema,
  ErrorResponseSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  PasswordChangeSchema,
  ProfileUpdateSchema,
  RegisterResponseSchema,
  RegistrationSchema,
} from '@aqa/plan';
import { defineRoute, NoContentSchema as NoContent } from '../route';

const tags = ['account'];

/** Accounts and sessions (docs/reference/01-authoring.md §6–§7). */
export const account = {
  register: defineRoute({
    method: 'POST',
    url: '/api/register',
    schema: {
      tags,
      summary: 'Create an account; the email is the username',
      body: RegistrationSchema,
      response: {
        201: RegisterResponseSchema,
        400: ErrorResponseSchema,
        403: ErrorResponseSchema.describe('Sign-up is turned off on this server (SIGN_UP_CLOSED)'),
        409: ErrorResponseSchema,
        429: ErrorResponseSchema,
      },
    },
  }),
  login: defineRoute({
    method: 'POST',
    url: '/api/login',
    schema: {
      tags,
      summary: 'Sign in with email (as username) and password; returns a bearer token',
      body: LoginRequestSchema,
      response: {
        200: LoginResponseSchema,
        400: ErrorResponseSchema,
        401: ErrorResponseSchema,
        429: ErrorResponseSchema,
      },
    },
  }),
  logout: defineRoute({
    method: 'POST',
    url: '/api/logout',
    schema: {
      tags,
      summary: 'Sign out: revokes the presented token',
      response: { 204: NoContent, 401: ErrorResponseSchema },
    },
  }),
  me: defineRoute({
    method: 'GET',
    url: '/api/me',
    schema: {
      tags,
      summary: 'The signed-in user',
      response: { 200: CurrentUserResponseSchema, 401: ErrorResponseSchema },
    },
  }),
  updateMe: defineRoute({
    method: 'PUT',
    url: '/api/me',
    schema: {
      tags,
      summary: "Update the signed-in user's profile",
      body: ProfileUpdateSchema,
      response: { 200: CurrentUserResponseSchema, 400: ErrorResponseSchema, 401: ErrorResponseSchema },
    },
  }),
  changePassword: defineRoute({
    method: 'POST',
    url: '/api/me/password',
    schema: {
      tags,
      summary: 'Change the password; signs out every other session of the user',
      body: PasswordChangeSchema,
      response: {
        204: NoContent,
        400: ErrorResponseSchema,
        401: ErrorResponseSchema,
        429: ErrorResponseSchema,
      },
    },
  }),
};
