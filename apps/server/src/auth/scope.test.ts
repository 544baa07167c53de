import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ForbiddenError, UnauthorizedError } from '../errors';
import type { AuthContext } from '../services/session.service';
import { assertSameUser, USER_MISMATCH_MESSAGE } from './scope';

const auth: AuthContext = {
  via: 'session',
  sessionId: 's1',
  user: {
    id: 'u1',
    email: 'Ada@Example.com',
    username: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    company: '',
    role: '',
    workspaceId: 'u1',
    workspaceRole: 'owner',
  },
};

const signedIn = { auth } as FastifyRequest;

describe('assertSameUser', () => {
  it('accepts the signed-in user by email or username, whatever the case and spacing', () => {
    expect(() => assertSameUser(signedIn, 'ada@example.com')).not.toThrow();
    expect(() => assertSameUser(signedIn, ' ADA@EXAMPLE.COM ')).not.toThrow();
    expect(() => assertSameUser(signedIn, 'Ada@Example.com')).not.toThrow();
  });

  it('accepts no user_email at all: the token says who it is', () => {
    expect(() => assertSameUser(signedIn)).not.toThrow();
    expect(() => assertSameUser(signedIn, '')).not.toThrow();
    expect(() => assertSameUser(signedIn, null)).not.toThrow();
  });

  it('refuses anyone else with 403 and the fixed message', () => {
    let thrown: unknown;
    try {
      assertSameUser(signedIn, 'grace@example.com');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ForbiddenError);
    expect(thrown).toMatchObject({ statusCode: 403, code: 'USER_MISMATCH', message: USER_MISMATCH_MESSAGE });
    expect(USER_MISMATCH_MESSAGE).toBe('user_email does not match the signed-in user');
  });

  it('refuses a request that is not signed in with 401', () => {
    expect(() => assertSameUser({ auth: null } as FastifyRequest, 'ada@example.com')).toThrow(
      UnauthorizedError,
    );
  });
});
